import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/shared/event-catalog.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken } from '../helpers/realms.js';
import { recordCustom } from './helpers.js';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h?.close(); });

const typesOf = (realmUid: string, token?: string) =>
  h.request({ method: 'GET', url: `/api/admin/customers/${realmUid}/event_types`, ...(token ? { token } : {}) });

describe('GET /customers/{realm_uid}/event_types', () => {
  it('lists the built-in types, then the custom types of this realm only, by name, each once', async () => {
    const realm = await makeRealm(h);
    const other = await makeRealm(h);
    const [ana, ben] = [await makeRealmUser(h, realm.uid), await makeRealmUser(h, realm.uid)];
    await recordCustom(h, realm.uid, ana.id, 'zeta_seen');
    await recordCustom(h, realm.uid, ben.id, 'zeta_seen');
    await recordCustom(h, realm.uid, ana.id, 'alpha_clicked');
    await recordCustom(h, other.uid, (await makeRealmUser(h, other.uid)).id, 'other_realm_only');

    const res = await typesOf(realm.uid);
    expect(res.statusCode, res.body).toBe(200);
    const builtIn = Object.entries(EVENT_TYPES).map(([type, titles]) => ({ type, title: titles.en, built_in: true }));
    expect(res.json().event_types).toEqual([
      ...builtIn,
      { type: 'alpha_clicked', title: '', built_in: false },
      { type: 'zeta_seen', title: '', built_in: false },
    ]);
    expect((await typesOf(other.uid)).json().event_types.filter((t: { built_in: boolean }) => !t.built_in).map((t: { type: string }) => t.type))
      .toEqual(['other_realm_only']);
  });

  it('titles the built-in types in the language asked for, and refuses a language it does not have', async () => {
    const realm = await makeRealm(h);
    const res = await h.request({ method: 'GET', url: `/api/admin/customers/${realm.uid}/event_types?locale=es` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().event_types.filter((t: { built_in: boolean }) => t.built_in))
      .toEqual(Object.entries(EVENT_TYPES).map(([type, titles]) => ({ type, title: titles.es, built_in: true })));
    expect((await h.request({ method: 'GET', url: `/api/admin/customers/${realm.uid}/event_types?locale=fr` })).statusCode).toBe(422);
  });

  it('answers 404 for an unknown realm and 403 to a member whose roles do not reach the realm', async () => {
    const realm = await makeRealm(h);
    const other = await makeRealm(h);
    expect((await typesOf('no-such-realm')).statusCode).toBe(404);
    expect((await typesOf(realm.uid, await memberToken(h, [{ key: 'realm_viewer', target: other.uid }]))).statusCode).toBe(403);
    expect((await typesOf(realm.uid, await memberToken(h, [{ key: 'realm_viewer', target: realm.uid }]))).statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: `/api/admin/customers/${realm.uid}/event_types`, token: null })).statusCode).toBe(401);
  });
});
