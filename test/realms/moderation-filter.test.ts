import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, inputValue } from '../helpers/cookie-jar.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';
import { listen } from '../helpers/server.js';

const PASSWORD = 'a long secret 1';

interface Listed { email: string; active: boolean; moderation_pending: boolean; confirmation_pending: boolean }

describe('the users awaiting moderation (GET /customers/{realm_uid}/users?status=...)', () => {
  let h: Harness;
  let base: string;
  beforeAll(async () => {
    h = await startHarness();
    base = await listen(h);
  });
  afterAll(async () => { await h?.close(); });

  /** Signs up at the realm's page as a visitor would. */
  async function signUp(uid: string, email: string): Promise<void> {
    const jar = new CookieJar(base);
    const page = await (await jar.fetch(`/realms/${uid}/signup`)).text();
    const res = await jar.post(`/realms/${uid}/signup`, { email, password: PASSWORD, csrf_token: inputValue(page, 'csrf_token') ?? '', redirect_uri: '' });
    expect(res.status).toBeLessThan(400);
  }
  const listed = async (uid: string, status: string): Promise<Listed[]> => {
    const res = await h.request({ method: 'GET', url: `/api/admin/customers/${uid}/users?status=${status}&sort_by=email&order=asc` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().users;
  };
  const emails = async (uid: string, status: string) => (await listed(uid, status)).map((user) => user.email);

  it('lists the moderated sign-ups no administrator has decided on, and each decision takes a user off the list', async () => {
    const realm = await makeRealm(h, { settings: { activation_mode: 'moderated' } });
    await signUp(realm.uid, 'ana@example.com');
    await signUp(realm.uid, 'bruno@example.com');
    await signUp(realm.uid, 'carla@example.com');
    await makeRealmUser(h, realm.uid, { email: 'admin-made@example.com' });
    await makeRealmUser(h, realm.uid, { email: 'switched-off@example.com', active: false });

    const pending = await listed(realm.uid, 'awaiting_moderation');
    expect(pending.map((user) => user.email)).toEqual(['ana@example.com', 'bruno@example.com', 'carla@example.com']);
    expect(pending.every((user) => user.moderation_pending && !user.active && !user.confirmation_pending)).toBe(true);
    expect(await emails(realm.uid, 'inactive')).toEqual(['ana@example.com', 'bruno@example.com', 'carla@example.com', 'switched-off@example.com']);
    expect(await emails(realm.uid, 'active')).toEqual(['admin-made@example.com']);

    const [ana, bruno] = pending as unknown as { id: number }[];
    const activated = await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/users/${ana.id}/activate` });
    expect(activated.statusCode, activated.body).toBe(200);
    expect(activated.json()).toMatchObject({ active: true, moderation_pending: false });
    // Refused: the administrator keeps the account off, which decides it too.
    const refused = await h.request({ method: 'PUT', url: `/api/admin/customers/${realm.uid}/users/${bruno.id}`, payload: { active: false } });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json()).toMatchObject({ active: false, moderation_pending: false });

    expect(await emails(realm.uid, 'awaiting_moderation')).toEqual(['carla@example.com']);
  });

  it('keeps activation-email sign-ups apart (awaiting_confirmation) and refuses an unknown status', async () => {
    const realm = await makeRealm(h, { settings: { activation_mode: 'activation_email' } });
    await signUp(realm.uid, 'dora@example.com');
    expect(await emails(realm.uid, 'awaiting_confirmation')).toEqual(['dora@example.com']);
    expect(await emails(realm.uid, 'awaiting_moderation')).toEqual([]);

    const unknown = await h.request({ method: 'GET', url: `/api/admin/customers/${realm.uid}/users?status=pending` });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().details).toEqual([{ field: 'status', messages: ['must be equal to one of the allowed values'] }]);
  });
});
