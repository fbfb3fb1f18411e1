import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usingPostgres } from '../helpers/database.js';
import { createMember } from '../helpers/admin.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { signInAtLoginPage } from '../helpers/realms.js';

// Two application instances on one PostgreSQL database stand for two server processes: what one
// changes, the other's caches drop through NOTIFY, long before their two seconds are up (the shared
// clock stands still here, so only a notification can empty them).
describe.runIf(usingPostgres())('caches across server processes', () => {
  let h: Harness;
  let peer: Awaited<ReturnType<Harness['peer']>>;
  beforeAll(async () => {
    h = await startHarness();
    peer = await h.peer();
  });
  afterAll(async () => {
    await peer?.close();
    await h?.close();
  });

  it('ends a customer\'s credential everywhere when an admin revokes the user\'s sessions', async () => {
    await h.request({ method: 'POST', url: '/api/admin/realms', payload: { uid: 'bank', name: 'Bank' } });
    const user = (await h.request({ method: 'POST', url: '/api/admin/customers/bank/users', payload: { email: 'ana@example.com', first_name: 'Ana', password: 'a long secret 1' } })).json();
    const cookie = await signInAtLoginPage(h, 'bank', 'ana@example.com', 'a long secret 1');
    const me = () => peer.app.inject({ method: 'GET', url: '/api/customers/realms/bank/me', headers: { cookie } });
    expect((await me()).statusCode).toBe(200);
    expect((await me()).statusCode).toBe(200);
    await h.request({ method: 'DELETE', url: `/api/admin/customers/bank/users/${user.id}/sessions` });
    await expect.poll(async () => (await me()).json(), { timeout: 3000, interval: 50 }).toEqual({ error: { grant_expired: 'session expired' } });
  });

  it('stops a deactivated member\'s token everywhere', async () => {
    const member = await createMember(h, [{ key: 'account_user' }]);
    const roles = () => peer.app.inject({ method: 'GET', url: '/api/admin/roles', headers: { authorization: `Bearer ${member.token}` } });
    expect((await roles()).statusCode).toBe(200);
    await h.request({ method: 'PUT', url: `/api/admin/team_members/${member.id}`, payload: { active: false } });
    await expect.poll(async () => (await roles()).statusCode, { timeout: 3000, interval: 50 }).toBe(401);
  });
});
