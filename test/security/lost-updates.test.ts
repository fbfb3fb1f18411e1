import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { createMember, type Member } from '../helpers/admin.js';
import { usingPostgres } from '../helpers/database.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';

const ROUNDS = 20;
const FLOOD = 6;
/** A round lasts as long as the owner's request queued behind the flood: up to a second or two on a busy machine. */
const FLOOD_TIMEOUT = 120_000;

/**
 * A concurrent edit never undoes a change of security state (DESIGN.md, "Writes of security state").
 * On PostgreSQL the owner's change goes through a second instance (its own pool) while the flood runs
 * on the first, so both really run at once; the embedded database has one instance and serializes.
 */
describe('no lost update on security state', () => {
  let h: Harness;
  let peer: { app: FastifyInstance; close(): Promise<void> } | null = null;
  let applicationId: number;

  beforeAll(async () => {
    h = await startHarness();
    if (usingPostgres()) peer = await h.peer();
    const app = await h.request({ method: 'POST', url: '/api/admin/api_access/applications', payload: { name: 'Flood' } });
    applicationId = app.json().id;
    const role = await h.request({
      method: 'POST', url: '/api/admin/roles', payload: { key: 'team_keeper', name: 'Team keeper', context: 'account', permissions: ['team.read', 'team.manage'] },
    });
    expect(role.statusCode, role.body).toBe(201);
  });
  afterAll(async () => {
    await peer?.close();
    await h?.close();
  });

  /** The owner's request, through the other instance when there is one. */
  const asOwner = (options: InjectOptions) => (peer
    ? peer.app.inject({ ...options, headers: { authorization: `Bearer ${h.ownerToken}` } })
    : h.request(options));

  const mintToken = async (memberId: number): Promise<string> => {
    const res = await h.request({ method: 'POST', url: `/api/admin/team_members/${memberId}/access_tokens`, payload: { application_id: applicationId } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().token;
  };

  /**
   * FLOOD requests of `flood` kept in flight (each answered one followed by the next) until the owner's
   * `change` is answered; every flood answer is 200, or 401 once the member is off.
   */
  async function race(flood: () => Promise<{ statusCode: number }>, change: () => Promise<{ statusCode: number; body: string }>) {
    let done = false;
    const worker = async () => {
      const answers: number[] = [];
      do answers.push((await flood()).statusCode); while (!done);
      return answers;
    };
    const workers = Array.from({ length: FLOOD }, worker);
    const owner = await change().finally(() => { done = true; });
    expect(owner.statusCode, owner.body).toBe(200);
    for (const status of (await Promise.all(workers)).flat()) expect([200, 401]).toContain(status);
  }

  it(`keeps a member's deactivation while it floods PUTs of its own first name (${ROUNDS} rounds)`, async () => {
    const member = await createMember(h, [{ key: 'team_keeper' }]);
    let token = member.token;
    let lost = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const ownPut = () => h.request({ method: 'PUT', url: `/api/admin/team_members/${member.id}`, token, payload: { first_name: `Flood ${round}` } });
      await race(ownPut, () => asOwner({ method: 'PUT', url: `/api/admin/team_members/${member.id}`, payload: { active: false } }));
      const shown = await h.request({ method: 'GET', url: `/api/admin/team_members/${member.id}` });
      if (shown.json().active !== false) lost++;
      const back = await h.request({ method: 'PUT', url: `/api/admin/team_members/${member.id}`, payload: { active: true } });
      expect(back.statusCode, back.body).toBe(200);
      token = await mintToken(member.id);
    }
    expect(lost).toBe(0);
  }, FLOOD_TIMEOUT);

  it(`keeps a member's new password while it floods PUTs of its own first name (${ROUNDS} rounds)`, async () => {
    const member: Member = await createMember(h, [{ key: 'team_keeper' }]);
    let lost = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const password = `the owner's choice ${round}`;
      const ownPut = () => h.request({ method: 'PUT', url: `/api/admin/team_members/${member.id}`, token: member.token, payload: { first_name: `Flood ${round}` } });
      await race(ownPut, () => asOwner({ method: 'PUT', url: `/api/admin/team_members/${member.id}`, payload: { password } }));
      const signIn = await h.request({ method: 'POST', url: '/api/admin/session', token: null, payload: { email: member.email, password } });
      if (signIn.statusCode !== 200) lost++;
    }
    expect(lost).toBe(0);
  }, FLOOD_TIMEOUT);

  it(`keeps a realm user's deactivation while an admin floods PUTs of its first name (${ROUNDS} rounds)`, async () => {
    const realm = await makeRealm(h);
    const user = await makeRealmUser(h, realm.uid);
    const url = `/api/admin/customers/${realm.uid}/users/${user.id}`;
    let lost = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const rename = () => h.request({ method: 'PUT', url, payload: { first_name: `Flood ${round}` } });
      await race(rename, () => asOwner({ method: 'PUT', url, payload: { active: false } }));
      if ((await h.request({ method: 'GET', url })).json().active !== false) lost++;
      expect((await h.request({ method: 'PUT', url, payload: { active: true } })).statusCode).toBe(200);
    }
    expect(lost).toBe(0);
  }, FLOOD_TIMEOUT);

  it('answers 404, never 500, to a PUT on a team member deleted meanwhile', async () => {
    const gone = await createMember(h, []);
    expect((await h.request({ method: 'DELETE', url: `/api/admin/team_members/${gone.id}` })).statusCode).toBe(204);
    const late = await h.request({ method: 'PUT', url: `/api/admin/team_members/${gone.id}`, payload: { first_name: 'Late' } });
    expect(late.statusCode, late.body).toBe(404);
    // The PUT hashes its password between its first read and its write: the deletion lands there.
    for (let round = 0; round < 10; round++) {
      const member = await createMember(h, []);
      const [put, del] = await Promise.all([
        h.request({ method: 'PUT', url: `/api/admin/team_members/${member.id}`, payload: { password: `a new password ${round}` } }),
        asOwner({ method: 'DELETE', url: `/api/admin/team_members/${member.id}` }),
      ]);
      expect(del.statusCode, del.body).toBe(204);
      expect([200, 404], put.body).toContain(put.statusCode);
    }
  });

  it('answers 404, never 500, to a PUT on a realm user deleted meanwhile', async () => {
    const realm = await makeRealm(h);
    for (let round = 0; round < 10; round++) {
      const user = await makeRealmUser(h, realm.uid);
      const url = `/api/admin/customers/${realm.uid}/users/${user.id}`;
      const [put, del] = await Promise.all([
        h.request({ method: 'PUT', url, payload: { password: `a new password ${round}` } }),
        asOwner({ method: 'DELETE', url }),
      ]);
      expect(del.statusCode, del.body).toBe(204);
      expect([200, 404], put.body).toContain(put.statusCode);
    }
  });
});
