import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { getAccount } from '../../src/account/account.js';
import { AdminPrincipal, type ActingContext, type Grant } from '../../src/admin-auth/principal.js';
import { listAuditLogs } from '../../src/audit/log.js';
import { createAsset, deleteAsset, listAssets, showAsset } from '../../src/content/assets/assets.js';
import { createEntry, deleteEntry, listEntries, saveDraft, showEntry } from '../../src/content/entries/entries.js';
import { publishEntry, scheduleEntry, unpublishEntry } from '../../src/content/entries/publishing.js';
import type { EntryScope } from '../../src/content/entries/scope.js';
import type { Space } from '../../src/content/spaces.js';
import { createType, deleteType, listTypes, showType, updateType } from '../../src/content/types/types.js';
import type { Context } from '../../src/context.js';
import { testSend } from '../../src/email-templates/queue.js';
import { ACCOUNT_SCOPE, listVersions, previewTemplate, resetTemplate, saveTemplate, showTemplate } from '../../src/email-templates/templates.js';
import { acting } from '../../src/http/acting.js';

const grant = (key: string, context: string, target: string | null, permissions: string[]): Grant => ({ key, context, target, permissions });

/**
 * The acting context of a member with these roles, whose context fails the test if the operation uses
 * anything of it (the database, the clock...) before asking for its permission; `given` is what it may use.
 */
function actingWith(grants: Grant[], given: Partial<Context> = {}): ActingContext {
  const ctx = { ...given, actor: new AdminPrincipal(7, grants) } as Record<string | symbol, unknown>;
  return new Proxy(ctx, {
    get: (target, name) => {
      if (name in target) return target[name];
      throw new Error(`the operation used ctx.${String(name)} before asking for its permission`);
    },
  }) as unknown as ActingContext;
}
const refused = expect.objectContaining({ code: 'ATR_FORBIDDEN' });

describe('an admin operation asks for its own permission', () => {
  const space = { id: 1, uid: 'blog' } as Space;
  const scope = { space, type: { id: 1, uid: 'post', fields: [] } } as unknown as EntryScope;
  const page = { page: 1, perPage: 10, offset: 0 };

  it('refuses, with the guard\'s 403 and before reading anything, a member whose roles do not carry it on the space', async () => {
    // A space role on another space, and one on this space carrying too little.
    const elsewhere = () => actingWith([grant('space_editor', 'space', 'docs', ['content.read', 'content.write', 'content.publish', 'content.manage'])]);
    const reader = () => actingWith([grant('space_reader', 'space', 'blog', ['content.read'])]);
    for (const ctx of [elsewhere, reader]) {
      await expect(createType(ctx(), space, { uid: 'x', name: 'X' })).rejects.toEqual(refused);
      await expect(updateType(ctx(), space, 'post', {})).rejects.toEqual(refused);
      await expect(deleteType(ctx(), space, 'post')).rejects.toEqual(refused);
      await expect(createEntry(ctx(), scope, { name: 'x' })).rejects.toEqual(refused);
      await expect(saveDraft(ctx(), scope, 'x', {})).rejects.toEqual(refused);
      await expect(deleteEntry(ctx(), scope, 'x')).rejects.toEqual(refused);
      await expect(publishEntry(ctx(), scope, 'x', {})).rejects.toEqual(refused);
      await expect(unpublishEntry(ctx(), scope, 'x', {})).rejects.toEqual(refused);
      await expect(scheduleEntry(ctx(), scope, 'x', {})).rejects.toEqual(refused);
      await expect(deleteAsset(ctx(), space, 'x')).rejects.toEqual(refused);
    }
    await expect(listTypes(elsewhere(), space, page, {})).rejects.toEqual(refused);
    await expect(showType(elsewhere(), space, 'post')).rejects.toEqual(refused);
    await expect(listEntries(elsewhere(), scope, page, {})).rejects.toEqual(refused);
    await expect(showEntry(elsewhere(), scope, 'x', {})).rejects.toEqual(refused);
    await expect(listAssets(elsewhere(), space, page, {})).rejects.toEqual(refused);
    await expect(showAsset(elsewhere(), space, 'x')).rejects.toEqual(refused);
  });

  it('discards an uploaded file it refuses', async () => {
    const discarded: string[] = [];
    const storage = { delete: async (key: string) => { discarded.push(key); } };
    const ctx = actingWith([grant('space_reader', 'space', 'blog', ['content.read'])], { storage: storage as unknown as Context['storage'], log: {} as Context['log'] });
    const file = { uuid: 'u', name: 'a.png', contentType: 'image/png', size: 1, key: 'content-assets/u', reasons: [] };
    await expect(createAsset(ctx, space, file as never, undefined)).rejects.toEqual(refused);
    expect(discarded).toEqual(['content-assets/u']);
  });

  it('asks for account.read and audit.read somewhere', async () => {
    const none = () => actingWith([grant('space_editor', 'space', 'blog', ['content.read'])]);
    await expect(getAccount(none())).rejects.toEqual(refused);
    await expect(listAuditLogs(none(), page, {})).rejects.toEqual(refused);
  });

  it('asks for the templates permission on the realm, and from an account role for the account\'s defaults', async () => {
    const bank = { realm: { id: 1, uid: 'bank', name: 'Bank', defaultLanguage: 'en' } };
    const realmEditor = () => actingWith([grant('realm_editor', 'realm', 'bank', ['templates.read', 'templates.manage'])]);
    const reader = () => actingWith([grant('realm_reader', 'realm', 'bank', ['templates.read'])]);
    await expect(showTemplate(realmEditor(), ACCOUNT_SCOPE, 'invitation')).rejects.toEqual(refused);
    await expect(listVersions(realmEditor(), ACCOUNT_SCOPE, 'invitation', page)).rejects.toEqual(refused);
    await expect(previewTemplate(realmEditor(), ACCOUNT_SCOPE, 'invitation', {})).rejects.toEqual(refused);
    await expect(saveTemplate(reader(), bank, 'invitation', {} as never)).rejects.toEqual(refused);
    await expect(resetTemplate(reader(), bank, 'invitation')).rejects.toEqual(refused);
    await expect(testSend(reader(), bank, 'invitation', {})).rejects.toEqual(refused);
  });

  it('is handed the principal the guard set on the request, or refuses with 401 without one', () => {
    const principal = new AdminPrincipal(7, []);
    const ctx = { clock: {} } as Context;
    expect(acting(ctx, { admin: principal } as FastifyRequest)).toEqual({ clock: {}, actor: principal });
    expect(() => acting(ctx, { admin: null } as FastifyRequest)).toThrow(expect.objectContaining({ code: 'ATR_UNAUTHENTICATED' }));
  });
});
