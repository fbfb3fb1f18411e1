import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken } from '../helpers/realms.js';
import { admin, eventsOf, LOAN, makeOrigination, startFor, tasksOf, type OriginationBody } from './fixtures.js';

const REVIEW_ONLY = { name: 'Review only', deadline_days: 5, steps: [{ name: 'Review', tasks: [{ name: 'Check', type: 'pending_review' }, { name: 'Validate', type: 'validation' }] }] };

describe('admin API: submissions', () => {
  let h: Harness;
  let realm: { uid: string };
  let loan: OriginationBody;
  let reviewOnly: OriginationBody;

  beforeAll(async () => {
    h = await startHarness();
    realm = await makeRealm(h);
    loan = await makeOrigination(h, realm.uid);
    reviewOnly = await makeOrigination(h, realm.uid, REVIEW_ONLY);
  });
  afterAll(async () => { await h?.close(); });

  const sub = (id: number, path = '') => `/customers/${realm.uid}/submissions/${id}${path}`;

  /** A team member with the role on this realm: its token and id. */
  async function member(first: string, key = 'realm_user') {
    const token = await memberToken(h, [{ key, target: realm.uid }]);
    const members = (await admin(h, 'GET', '/team_members?per_page=1&sort_by=id&order=desc')).json().team_members;
    await admin(h, 'PUT', `/team_members/${members[0].id}`, { first_name: first, last_name: 'Reviewer' });
    return { token, id: members[0].id as number, uuid: '' };
  }

  async function group(name: string, memberIds: number[]) {
    const res = await admin(h, 'POST', `/customers/${realm.uid}/groups`, { name, member_ids: memberIds });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; name: string };
  }

  it('starts a submission for a user of the realm and records the started event; another realm\'s user is 422', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const started = await startFor(h, realm.uid, loan.id, user.id);
    expect(started).toMatchObject({ status: 'pending', progress: '0%', user: { id: user.id, uuid: user.uuid } });
    const events = await eventsOf(h, user.id, 'origination_submission_started_log');
    expect(events).toHaveLength(1);
    expect(events[0].properties).toEqual({ submission_uuid: started.uuid, origination_uuid: loan.uuid, origination_name: 'Personal loan' });
    expect((await admin(h, 'GET', sub(started.id))).json()).toEqual(started);
    const stranger = await makeRealmUser(h, (await makeRealm(h)).uid);
    const res = await admin(h, 'POST', `/customers/${realm.uid}/originations/${loan.id}/submissions`, { user_id: stranger.id });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'user_id', messages: ['is not a user of this realm'] }]);
    expect((await admin(h, 'POST', `/customers/${realm.uid}/originations/${2 ** 31 - 1}/submissions`, { user_id: user.id })).statusCode).toBe(404);
  });

  it('assigns to a group, to a member of a group, to an admin, and unassigns (spec 2.10)', async () => {
    const ana = await member('Ana');
    const bob = await member('Bob');
    const underwriters = await group('Underwriters', [ana.id]);
    const user = await makeRealmUser(h, realm.uid);
    const { id } = await startFor(h, realm.uid, reviewOnly.id, user.id);
    const assign = (body: unknown) => admin(h, 'PUT', sub(id, '/assignee'), body);

    const toGroup = (await assign({ group_id: underwriters.id })).json();
    expect(toGroup.assignee).toEqual({ type: 'group', id: underwriters.id, name: 'Underwriters', label: 'Underwriters' });
    expect(toGroup.tasks[0]).toMatchObject({ assignee_id: null, assignee_group_id: underwriters.id, assignee_context_group_id: null, assignee_label: 'Underwriters' });

    const inGroup = (await assign({ group_id: underwriters.id, admin_id: ana.id })).json();
    expect(inGroup.assignee).toEqual({
      type: 'user_in_group', id: ana.id, uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Ana Reviewer', first_name: 'Ana', last_name: 'Reviewer',
      group_id: underwriters.id, group_name: 'Underwriters', label: 'Ana Reviewer (Underwriters)',
    });
    expect(inGroup.tasks[1]).toMatchObject({ assignee_id: ana.id, assignee_group_id: null, assignee_context_group_id: underwriters.id, assignee_label: 'Ana Reviewer (Underwriters)' });

    const toAdmin = (await assign({ admin_id: bob.id })).json();
    expect(toAdmin.assignee).toEqual({ type: 'user', id: bob.id, uuid: expect.any(String), name: 'Bob Reviewer', first_name: 'Bob', last_name: 'Reviewer', label: 'Bob Reviewer' });
    expect(Object.keys(toAdmin.assignee)).not.toContain('group_id');

    expect((await assign({})).json().assignee).toBeNull();
  });

  it('refuses an assignee that is not a group of the realm, not a member of the group, or may not review (422)', async () => {
    const ana = await member('Ana');
    const carl = await member('Carl');
    const viewer = await member('Vera', 'realm_viewer');
    const g = await group('Risk', [ana.id]);
    const theirGroup = (await admin(h, 'POST', `/customers/${(await makeRealm(h)).uid}/groups`, { name: 'Theirs' })).json();
    const user = await makeRealmUser(h, realm.uid);
    const { id } = await startFor(h, realm.uid, reviewOnly.id, user.id);
    const cases: [unknown, string][] = [
      [{ group_id: theirGroup.id }, 'group_id'],
      [{ group_id: g.id, admin_id: carl.id }, 'admin_id'],
      [{ admin_id: viewer.id }, 'admin_id'],
      [{ admin_id: 2 ** 31 - 1 }, 'admin_id'],
      [{ admin_id: 0 }, 'admin_id'],
      [{ group_id: 2 ** 40 }, 'group_id'],
    ];
    for (const [body, field] of cases) {
      const res = await admin(h, 'PUT', sub(id, '/assignee'), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().details[0].field).toBe(field);
    }
    expect((await admin(h, 'GET', sub(id))).json().assignee).toBeNull();
  });

  it('extends the deadline by bounded days: negative, zero, huge or past the total are 422; without a deadline 422', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const started = await startFor(h, realm.uid, loan.id, user.id);
    const extend = (id: number, days: unknown) => admin(h, 'POST', sub(id, '/extend_deadline'), { days });
    for (const days of [-1, 0, 366, 2 ** 31, 2 ** 40, 1.5, '3', null]) {
      const res = await extend(started.id, days);
      expect(res.statusCode, String(days)).toBe(days === '3' ? 200 : 422);
    }
    const body = (await extend(started.id, 365)).json();
    expect(body.due_extension_days).toBe(368);
    expect(body.due_deadline_at).toBe(new Date(Date.parse(started.due_deadline_at) + 368 * 86_400_000).toISOString());
    for (let i = 0; i < 8; i++) await extend(started.id, 365);
    const over = await extend(started.id, 365);
    expect(over.statusCode).toBe(422);
    expect((await admin(h, 'GET', sub(started.id))).json().due_extension_days).toBe(368 + 8 * 365);
    const open = await makeOrigination(h, realm.uid, { ...LOAN, deadline_days: null });
    const noDeadline = await startFor(h, realm.uid, open.id, user.id);
    expect((await extend(noDeadline.id, 1)).statusCode).toBe(422);
    const waiting = await startFor(h, realm.uid, open.id, user.id, { start: false });
    expect((await extend(waiting.id, 1)).statusCode).toBe(422);
  });

  it('cancels with a reason; a canceled submission refuses every change with 409', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const { id } = await startFor(h, realm.uid, reviewOnly.id, user.id);
    expect((await admin(h, 'POST', sub(id, '/cancel'), { reason: '' })).statusCode).toBe(422);
    expect((await admin(h, 'POST', sub(id, '/cancel'), { reason: '   ' })).statusCode).toBe(422);
    expect((await admin(h, 'POST', sub(id, '/cancel'), { reason: 'x'.repeat(1001) })).statusCode).toBe(422);
    const canceled = await admin(h, 'POST', sub(id, '/cancel'), { reason: 'Customer withdrew' });
    expect(canceled.json()).toMatchObject({ status: 'canceled', cancellation_reason: 'Customer withdrew' });
    for (const [method, path, body] of [
      ['POST', '/cancel', { reason: 'again' }], ['POST', '/extend_deadline', { days: 1 }], ['PUT', '/assignee', {}],
      ['POST', `/tasks/${tasksOf(reviewOnly)[0].uid}/complete`, undefined],
    ] as const) {
      const res = await admin(h, method, sub(id, path), body);
      expect(res.statusCode, path).toBe(409);
      expect(res.json()).toEqual({ errors: ['The submission is canceled: it cannot be changed'], code: 'ATR_SUBMISSION_CLOSED' });
    }
  });

  it('completes review tasks in order; the last one completes the submission and records the event once', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const { id } = await startFor(h, realm.uid, reviewOnly.id, user.id);
    const [check, validate] = tasksOf(reviewOnly);
    const complete = (uid: string, token?: string) => admin(h, 'POST', sub(id, `/tasks/${uid}/complete`), undefined, token);
    expect((await complete(validate.uid)).statusCode).toBe(409);
    expect((await complete('nope')).statusCode).toBe(404);
    expect((await complete(tasksOf(loan)[0].uid)).statusCode).toBe(404);
    expect((await complete(check.uid)).json()).toMatchObject({ status: 'pending', progress: '50%' });
    expect((await complete(check.uid)).statusCode).toBe(409);
    const done = (await complete(validate.uid)).json();
    expect(done).toMatchObject({ status: 'completed', progress: '100%' });
    expect(await eventsOf(h, user.id, 'origination_submission_completed_log')).toHaveLength(1);
    expect((await complete(validate.uid)).statusCode).toBe(409);
    // A user's task is not a reviewer's.
    const withForm = await startFor(h, realm.uid, loan.id, user.id);
    expect((await admin(h, 'POST', sub(withForm.id, `/tasks/${tasksOf(loan)[0].uid}/complete`))).statusCode).toBe(422);
  });

  it('lets only the assigned reviewer, a member of the assigned group, or a manager complete a review (403 otherwise)', async () => {
    const ana = await member('Ana');
    const bob = await member('Bob');
    // A reviewer who may review but not manage: a custom realm role.
    const role = await admin(h, 'POST', '/roles', { key: `reviewer_${Date.now()}`, name: 'Reviewer', context: 'realm', permissions: ['realm.originations.read', 'realm.originations.review'] });
    expect(role.statusCode, role.body).toBe(201);
    const dana = { token: await memberToken(h, [{ key: role.json().key, target: realm.uid }]) };
    const danaId = (await admin(h, 'GET', '/team_members?per_page=1&sort_by=id&order=desc')).json().team_members[0].id;
    const eve = { token: await memberToken(h, [{ key: role.json().key, target: realm.uid }]) };
    const team = await group('Team D', [danaId]);
    const user = await makeRealmUser(h, realm.uid);
    const { id } = await startFor(h, realm.uid, reviewOnly.id, user.id);
    const [check, validate] = tasksOf(reviewOnly);
    const complete = (uid: string, token: string) => admin(h, 'POST', sub(id, `/tasks/${uid}/complete`), undefined, token);

    await admin(h, 'PUT', sub(id, '/assignee'), { group_id: team.id });
    expect((await complete(check.uid, eve.token)).statusCode).toBe(403);
    expect((await complete(check.uid, dana.token)).statusCode).toBe(200);
    await admin(h, 'PUT', sub(id, '/assignee'), { admin_id: ana.id });
    expect((await complete(validate.uid, dana.token)).statusCode).toBe(403);
    // realm_user holds realm.originations.manage: a manager steps in.
    expect((await complete(validate.uid, bob.token)).statusCode).toBe(200);
    const viewer = await memberToken(h, [{ key: 'realm_viewer', target: realm.uid }]);
    const other = await startFor(h, realm.uid, reviewOnly.id, user.id);
    expect((await admin(h, 'POST', sub(other.id, `/tasks/${check.uid}/complete`), undefined, viewer)).statusCode).toBe(403);
    expect((await admin(h, 'POST', `/customers/${realm.uid}/originations/${loan.id}/submissions`, { user_id: user.id }, viewer)).statusCode).toBe(403);
    expect((await admin(h, 'GET', sub(other.id), undefined, viewer)).statusCode).toBe(200);
  });

  it('lists a user\'s submissions newest first; 404 for a user of another realm; a submission of another realm is 404', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const first = await startFor(h, realm.uid, loan.id, user.id);
    h.clock.advanceMinutes(1);
    const second = await startFor(h, realm.uid, reviewOnly.id, user.id);
    const list = (await admin(h, 'GET', `/customers/${realm.uid}/users/${user.id}/submissions`)).json();
    expect(list.submissions.map((s: { id: number }) => s.id)).toEqual([second.id, first.id]);
    expect(list.meta).toEqual({ total_entries: 2, per_page: 10, current_page: 1, total_pages: 1 });
    const elsewhere = await makeRealm(h);
    expect((await admin(h, 'GET', `/customers/${elsewhere.uid}/users/${user.id}/submissions`)).statusCode).toBe(404);
    expect((await admin(h, 'GET', `/customers/${elsewhere.uid}/submissions/${first.id}`)).statusCode).toBe(404);
    expect((await admin(h, 'POST', `/customers/${elsewhere.uid}/submissions/${first.id}/cancel`, { reason: 'x' })).statusCode).toBe(404);
  });

  it('goes with its user, and with its realm (originations, groups and submissions alike)', async () => {
    const doomed = await makeRealm(h);
    const origination = await makeOrigination(h, doomed.uid);
    const user = await makeRealmUser(h, doomed.uid);
    const kept = await makeRealmUser(h, doomed.uid);
    const gone = await startFor(h, doomed.uid, origination.id, user.id);
    await startFor(h, doomed.uid, origination.id, kept.id);
    await admin(h, 'POST', `/customers/${doomed.uid}/groups`, { name: 'Doomed', member_ids: [h.ownerId] });
    expect((await admin(h, 'DELETE', `/customers/${doomed.uid}/users/${user.id}`)).statusCode).toBe(204);
    expect((await admin(h, 'GET', `/customers/${doomed.uid}/submissions/${gone.id}`)).statusCode).toBe(404);
    expect((await admin(h, 'DELETE', `/realms/${doomed.uid}`)).statusCode).toBe(204);
    const again = await makeRealm(h, { uid: doomed.uid });
    expect((await admin(h, 'GET', `/customers/${again.uid}/originations`)).json().meta.total_entries).toBe(0);
    expect((await admin(h, 'GET', `/customers/${again.uid}/groups`)).json().meta.total_entries).toBe(0);
  });
});
