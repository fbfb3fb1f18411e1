import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken } from '../helpers/realms.js';

const PREVIEW = '/api/admin/segments/preview_matches';
const COUNT = '/api/admin/segments/count_matches';

/** What the segment builder shows beside an unsaved tree: its live count and the first users it selects. */
describe('preview of the users matching an unsaved segment', () => {
  let h: Harness;
  let realm: { uid: string };
  const anas: number[] = [];

  beforeAll(async () => {
    h = await startHarness();
    realm = await makeRealm(h);
    for (let i = 0; i < 12; i++) {
      anas.push((await makeRealmUser(h, realm.uid, { first_name: `Ana ${i}` })).id);
      h.clock.advanceMinutes(1);
    }
    await makeRealmUser(h, realm.uid, { first_name: 'Bruno' });
  });
  afterAll(async () => { await h?.close(); });

  const ask = (url: string, payload: Record<string, unknown>, token?: string) => h.request({ method: 'POST', url, token, payload });
  const anaFilter = { attribute: 'first_name', operator: 'starts_with', value: 'ana' };

  it('answers the count of count_matches and the first ten users, most recently changed first, as the user list shows them', async () => {
    const body = { realm_uid: realm.uid, filters: { all: [anaFilter] } };
    const res = await ask(PREVIEW, body);
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json();
    expect(preview.matches_count).toBe((await ask(COUNT, body)).json().matches_count);
    expect(preview.matches_count).toBe(12);
    expect(preview.users.map((u: { id: number }) => u.id)).toEqual(anas.slice(2).reverse());
    const listed = await h.request({ method: 'GET', url: `/api/admin/customers/${realm.uid}/users?query=Ana%20&per_page=10` });
    expect(preview.users).toEqual(listed.json().users);
  });

  it('answers no users when nothing matches', async () => {
    const res = await ask(PREVIEW, { realm_uid: realm.uid, filters: { attribute: 'first_name', operator: 'eq', value: 'Nobody' } });
    expect(res.json()).toEqual({ matches_count: 0, users: [] });
  });

  it('refuses a bad tree with 422 naming the path of the bad node, like count_matches', async () => {
    const filters = { all: [anaFilter, { any: [anaFilter, { attribute: 'first_name', operator: 'eq', value: 7 }] }] };
    for (const url of [PREVIEW, COUNT]) {
      const res = await ask(url, { realm_uid: realm.uid, filters });
      expect(res.statusCode).toBe(422);
      expect(res.json().details).toEqual([{ field: 'filters.all[1].any[1].value', messages: [expect.any(String)] }]);
    }
  });

  it('needs segments.read and realm.users.read on the realm: a member who may count may not see the users', async () => {
    const body = { realm_uid: realm.uid, filters: anaFilter };
    const counter = await memberToken(h, [{ key: 'account_user' }]);
    // Counting over a name needs realm.users.read too (test/security/personal-data.test.ts); over other attributes it does not.
    expect((await ask(COUNT, { realm_uid: realm.uid, filters: { attribute: 'active', operator: 'is', value: true } }, counter)).statusCode).toBe(200);
    const refused = await ask(PREVIEW, { realm_uid: realm.uid, filters: { attribute: 'active', operator: 'is', value: true } }, counter);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors[0]).toMatch(/realm\.users\.read/);
    const elsewhere = await memberToken(h, [{ key: 'realm_viewer', target: (await makeRealm(h)).uid }]);
    expect((await ask(PREVIEW, body, elsewhere)).statusCode).toBe(403);
    const viewer = await memberToken(h, [{ key: 'realm_viewer', target: realm.uid }]);
    expect((await ask(PREVIEW, body, viewer)).json().matches_count).toBe(12);
  });

  it('refuses an unknown realm with 422 and a NUL with 400', async () => {
    const unknown = await ask(PREVIEW, { realm_uid: 'no-such-realm', filters: anaFilter });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().details[0].field).toBe('realm_uid');
    expect((await ask(PREVIEW, { realm_uid: realm.uid, filters: { ...anaFilter, value: 'a\u0000' } })).statusCode).toBe(400);
  });
});
