import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';
import { signedInUser, userWithToken, type SignedIn } from '../notifications/fixtures.js';
import { admin, asUser, attachmentOf, eventsOf, LOAN, makeOrigination, NOT_FOUND, startFor, tasksOf, type OriginationBody } from './fixtures.js';

const DAY = 24 * 60 * 60 * 1000;

describe('customers API: origination submissions', () => {
  let h: Harness;
  let realm: { uid: string };
  let loan: OriginationBody;

  beforeAll(async () => {
    h = await startHarness();
    realm = await makeRealm(h);
    loan = await makeOrigination(h, realm.uid);
  });
  afterAll(async () => { await h?.close(); });

  const get = (who: SignedIn, path: string) => asUser(h, who.headers, 'GET', realm.uid, path);
  const answer = (who: SignedIn, uuid: string, taskUid: string, fields: Record<string, unknown>) =>
    asUser(h, who.headers, 'PUT', realm.uid, `/submissions/${uuid}/tasks/${taskUid}`, { fields });
  const [form, review, validation, confirmation] = [0, 1, 2, 3].map((i) => () => tasksOf(loan)[i]);
  const questions = () => form().questions;

  async function validAnswers(who: SignedIn) {
    const [name, income, birth, purpose, payslip] = questions();
    return {
      [name.id]: ' Ada Lovelace ', [income.id]: 4200.5, [birth.id]: '1990-02-28', [purpose.id]: 'car',
      [payslip.id]: await attachmentOf(h, realm.uid, who.id, payslip.id),
    };
  }

  it('answers the submission in the shape of spec 2.9–2.11', async () => {
    const user = await signedInUser(h, realm.uid);
    const started = await startFor(h, realm.uid, loan.id, user.id);
    const res = await get(user, `/submissions/${started.uuid}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([
      'assignee', 'cancellation_reason', 'created_at', 'due', 'due_deadline_at', 'due_extension_days', 'due_label', 'due_status_label',
      'id', 'origination_name', 'origination_uuid', 'progress', 'started_at', 'status', 'tasks', 'updated_at', 'user', 'uuid',
    ]);
    const now = h.clock.now();
    expect(body).toMatchObject({
      id: started.id, uuid: started.uuid, status: 'pending', progress: '0%', origination_name: 'Personal loan', origination_uuid: loan.uuid,
      cancellation_reason: null, assignee: null, started_at: now.toISOString(), created_at: now.toISOString(),
      due_deadline_at: new Date(now.getTime() + 10 * DAY).toISOString(), due_label: null, due_status_label: '(on track)', due_extension_days: 0,
      user: { id: user.id, name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace' },
    });
    expect(Object.keys(body.user).sort()).toEqual(['first_name', 'id', 'last_name', 'name', 'uuid']);
    expect(body.tasks.map((t: { task: unknown; status: string }) => [t.task, t.status])).toEqual([
      [{ uid: form().uid, name: 'About you', type: 'input', step_name: 'Your details', questions: questions() }, 'pending'],
      [{ uid: review().uid, name: 'Documents review', type: 'pending_review', step_name: 'Review' }, 'not_started'],
      [{ uid: validation().uid, name: 'Identity check', type: 'validation', step_name: 'Review' }, 'not_started'],
      [{ uid: confirmation().uid, name: 'Accept the terms', type: 'confirmation', step_name: 'Signature' }, 'not_started'],
    ]);
    const [input, pendingReview, validating, confirming] = body.tasks;
    expect(input).toEqual({
      task: input.task, status: 'pending', user_id: user.id, assignee_id: null, assignee_group_id: null, assignee_context_group_id: null,
      assignee_label: null, fields: {},
    });
    expect(pendingReview.content).toBe('We are checking your documents.');
    for (const task of body.tasks) expect(task).not.toHaveProperty('completed');
    expect(validating).not.toHaveProperty('content');
    expect(validating).not.toHaveProperty('fields');
    expect(confirming).not.toHaveProperty('fields');
  });

  it('tells the deadline from the injected clock: on track, due soon within 2 days, overdue; extensions move it', async () => {
    const user = await signedInUser(h, realm.uid);
    const start = h.clock.now();
    const { uuid, id } = await startFor(h, realm.uid, loan.id, user.id);
    expect((await get(user, `/submissions/${uuid}`)).json()).toEqual((await admin(h, 'GET', `/customers/${realm.uid}/submissions/${id}`)).json());
    const deadline = new Date(start.getTime() + 10 * DAY);
    const date = (d: Date) => new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(d);
    const due = async () => {
      // Read as an admin: the user's session (120 minutes) does not outlive these days; the shape is the same.
      const b = (await admin(h, 'GET', `/customers/${realm.uid}/submissions/${id}`)).json();
      return [b.due, b.due_deadline_at, b.due_label, b.due_status_label, b.due_extension_days];
    };
    expect(await due()).toEqual([`${date(deadline)} (on track)`, deadline.toISOString(), null, '(on track)', 0]);
    h.clock.advance(8 * DAY - 1000);
    expect(await due()).toEqual([`${date(deadline)} (on track)`, deadline.toISOString(), null, '(on track)', 0]);
    h.clock.advance(1000);
    expect(await due()).toEqual([`${date(deadline)} (due soon)`, deadline.toISOString(), null, '(due soon)', 0]);
    h.clock.advance(2 * DAY);
    expect(await due()).toEqual([`${date(deadline)} (overdue)`, deadline.toISOString(), null, '(overdue)', 0]);
    expect((await admin(h, 'POST', `/customers/${realm.uid}/submissions/${id}/extend_deadline`, { days: 3 })).statusCode).toBe(200);
    const extended = new Date(deadline.getTime() + 3 * DAY);
    expect(await due()).toEqual([`${date(extended)} (on track)`, extended.toISOString(), null, '(on track)', 3]);
    h.clock.advance(1 * DAY + 1);
    expect(await due()).toEqual([`${date(extended)} (due soon)`, extended.toISOString(), null, '(due soon)', 3]);
  });

  it('shows placeholders where there is no deadline to show', async () => {
    const user = await signedInUser(h, realm.uid);
    const waiting = await startFor(h, realm.uid, loan.id, user.id, { start: false });
    expect(waiting).toMatchObject({
      status: 'not_started', started_at: null, due: 'Not started', due_label: 'Not started', due_deadline_at: null, due_status_label: null, due_extension_days: 0,
    });
    expect(waiting.tasks.map((t: { status: string }) => t.status)).toEqual(['not_started', 'not_started', 'not_started', 'not_started']);
    const open = await makeOrigination(h, realm.uid, { ...LOAN, name: 'No deadline', deadline_days: null });
    const pending = await startFor(h, realm.uid, open.id, user.id);
    expect(pending).toMatchObject({ status: 'pending', due: '-', due_label: '-', due_deadline_at: null, due_status_label: null, due_extension_days: null });
    const canceled = (await admin(h, 'POST', `/customers/${realm.uid}/submissions/${waiting.id}/cancel`, { reason: 'Duplicate application' })).json();
    expect(canceled).toMatchObject({ status: 'canceled', cancellation_reason: 'Duplicate application', due: '-', due_label: '-', due_deadline_at: null, due_status_label: null });
  });

  it('answers 404 {} for an unknown uuid, another user\'s submission and a malformed uuid; 401 without a credential', async () => {
    const user = await signedInUser(h, realm.uid);
    const other = await signedInUser(h, realm.uid);
    const { uuid } = await startFor(h, realm.uid, loan.id, user.id);
    for (const path of [`/submissions/${uuid}`.replace(/.$/, (c) => (c === '0' ? '1' : '0')), '/submissions/not-a-uuid', `/submissions/${'9'.repeat(40)}`]) {
      const res = await get(user, path);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
    const theirs = await get(other, `/submissions/${uuid}`);
    expect([theirs.statusCode, theirs.json()]).toEqual([404, NOT_FOUND]);
    expect((await answer(other, uuid, form().uid, await validAnswers(other))).statusCode).toBe(404);
    const anonymous = await asUser(h, {}, 'GET', realm.uid, `/submissions/${uuid}`);
    expect([anonymous.statusCode, anonymous.json()]).toEqual([401, { error: { user_session: 'user not found' } }]);
    const elsewhere = await makeRealm(h);
    expect((await asUser(h, user.headers, 'GET', elsewhere.uid, `/submissions/${uuid}`)).statusCode).toBe(401);
  });

  it('lists the user\'s own submissions newest first, paginated, in the same shape (with an OAuth token too)', async () => {
    const user = await userWithToken(h, realm.uid);
    const other = await makeRealmUser(h, realm.uid);
    await startFor(h, realm.uid, loan.id, other.id);
    const uuids: string[] = [];
    for (let i = 0; i < 3; i++) {
      h.clock.advanceMinutes(1);
      uuids.push((await startFor(h, realm.uid, loan.id, user.id)).uuid);
    }
    const page = (await get(user, '/submissions?per_page=2')).json();
    expect(page.meta).toEqual({ total_entries: 3, per_page: 2, current_page: 1, total_pages: 2 });
    expect(page.submissions.map((s: { uuid: string }) => s.uuid)).toEqual([uuids[2], uuids[1]]);
    expect(page.submissions[0]).toEqual((await get(user, `/submissions/${uuids[2]}`)).json());
    const last = (await get(user, '/submissions?page=2&per_page=2')).json();
    expect(last.submissions.map((s: { uuid: string }) => s.uuid)).toEqual([uuids[0]]);
    expect((await get(user, '/submissions?page=7')).json()).toEqual({ submissions: [], meta: { total_entries: 3, per_page: 10, current_page: 7, total_pages: 1 } });
  });

  it('goes through every task: answers checked by type, progress, reviews, and the events started and completed', async () => {
    const user = await signedInUser(h, realm.uid);
    const { uuid, id } = await startFor(h, realm.uid, loan.id, user.id);
    const fields = await validAnswers(user);
    const answered = await answer(user, uuid, form().uid, fields);
    expect(answered.statusCode, answered.body).toBe(200);
    const body = answered.json();
    expect(body.progress).toBe('25%');
    expect(body.tasks[0]).toMatchObject({ status: 'completed', fields: { ...fields, [questions()[0].id]: 'Ada Lovelace' } });
    expect(body.tasks[1]).toMatchObject({ status: 'pending', content: 'We are checking your documents.' });
    // A review task is the reviewer's: the user cannot complete it, nor skip ahead.
    expect((await answer(user, uuid, review().uid, {})).statusCode).toBe(422);
    expect((await answer(user, uuid, confirmation().uid, {})).statusCode).toBe(409);
    expect((await answer(user, uuid, form().uid, fields)).statusCode).toBe(409);
    for (const task of [review(), validation()]) {
      const done = await admin(h, 'POST', `/customers/${realm.uid}/submissions/${id}/tasks/${task.uid}/complete`);
      expect(done.statusCode, done.body).toBe(200);
    }
    const reviewed = (await get(user, `/submissions/${uuid}`)).json();
    expect(reviewed.progress).toBe('75%');
    expect(reviewed.tasks[1]).toMatchObject({ status: 'completed', assignee_id: h.ownerId, assignee_label: expect.any(String) });
    expect((await answer(user, uuid, confirmation().uid, { 1: 'x' })).statusCode).toBe(422);
    const completed = await answer(user, uuid, confirmation().uid, {});
    expect(completed.statusCode, completed.body).toBe(200);
    expect(completed.json()).toMatchObject({ status: 'completed', progress: '100%', due: '-', due_label: '-', due_deadline_at: null, due_status_label: null });
    expect((await answer(user, uuid, confirmation().uid, {})).statusCode).toBe(409);
    expect(await eventsOf(h, user.id, 'origination_submission_started_log')).toHaveLength(1);
    expect(await eventsOf(h, user.id, 'origination_submission_completed_log')).toHaveLength(1);
    const events = (await get(user, '/events')).json().events.map((e: { title: string }) => e.title);
    expect(events).toEqual(expect.arrayContaining(['Application started', 'Application completed']));
  });

  it('refuses answers of the wrong type, unknown questions and another user\'s attachment with 422, writing nothing', async () => {
    const user = await signedInUser(h, realm.uid);
    const other = await signedInUser(h, realm.uid);
    const { uuid } = await startFor(h, realm.uid, loan.id, user.id);
    const good = await validAnswers(user);
    const [name, income, birth, purpose, payslip] = questions();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, [name.id]: '   ' }, `fields.${name.id}`],
      [{ ...good, [income.id]: '4200' }, `fields.${income.id}`],
      [{ ...good, [birth.id]: '2023-02-30' }, `fields.${birth.id}`],
      [{ ...good, [birth.id]: 20230101 }, `fields.${birth.id}`],
      [{ ...good, [purpose.id]: 'boat' }, `fields.${purpose.id}`],
      [{ ...good, [payslip.id]: await attachmentOf(h, realm.uid, other.id) }, `fields.${payslip.id}`],
      [{ ...good, [payslip.id]: 2 ** 40 }, `fields.${payslip.id}`],
      [{ ...good, [payslip.id]: 'payslip.pdf' }, `fields.${payslip.id}`],
      [{ ...good, 999999: 'extra' }, 'fields.999999'],
      [{ [name.id]: 'Ada' }, `fields.${income.id}`],
    ];
    for (const [fields, field] of cases) {
      const res = await answer(user, uuid, form().uid, fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(422);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const afterwards = (await get(user, `/submissions/${uuid}`)).json();
    expect(afterwards.tasks[0]).toMatchObject({ status: 'pending', fields: {} });
    expect(afterwards.progress).toBe('0%');
  });

  it('leaves a file answer without a file once its attachment is gone, and omits the responses of removed tasks', async () => {
    const user = await signedInUser(h, realm.uid);
    const own = await makeOrigination(h, realm.uid, { ...LOAN, name: 'Changing' });
    const { uuid } = await startFor(h, realm.uid, own.id, user.id);
    const [q0, q1, q2, q3, q4] = tasksOf(own)[0].questions;
    const file = await attachmentOf(h, realm.uid, user.id);
    const fields = { [q0.id]: 'Ada', [q1.id]: 1, [q2.id]: '2000-01-01', [q3.id]: 'home', [q4.id]: file };
    expect((await answer(user, uuid, tasksOf(own)[0].uid, fields)).statusCode).toBe(200);
    await h.ctx.db.execute(`delete from answer_attachments where id = ${file}`);
    expect((await get(user, `/submissions/${uuid}`)).json().tasks[0].fields[q4.id]).toBeNull();
    // The form is removed from the origination: its response is no longer shown, and progress counts the tasks left.
    const steps = own.steps.slice(1).map((s) => ({ name: s.name, tasks: s.tasks.map(({ questions: _q, ...t }) => t) }));
    const changed = await admin(h, 'PUT', `/customers/${realm.uid}/originations/${own.id}`, { steps });
    expect(changed.statusCode, changed.body).toBe(200);
    const shown = (await get(user, `/submissions/${uuid}`)).json();
    expect(shown.tasks.map((t: { task: { uid: string } }) => t.task.uid)).toEqual(tasksOf(own).slice(1).map((t) => t.uid));
    expect(shown.progress).toBe('0%');
    expect(shown.tasks[0].status).toBe('pending');
  });

  it('refuses answers to a canceled submission (409) and to an unknown task (404 {})', async () => {
    const user = await signedInUser(h, realm.uid);
    const { uuid, id } = await startFor(h, realm.uid, loan.id, user.id);
    expect((await answer(user, uuid, '00000000-0000-0000-0000-000000000000', {})).statusCode).toBe(404);
    expect((await answer(user, uuid, 'not-a-task', {})).json()).toEqual(NOT_FOUND);
    expect((await admin(h, 'POST', `/customers/${realm.uid}/submissions/${id}/cancel`, { reason: 'Fraud suspected' })).statusCode).toBe(200);
    const res = await answer(user, uuid, form().uid, await validAnswers(user));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ errors: ['The submission is canceled: it cannot be changed'] });
  });

  it('starts a submission not yet started with its first answer, recording the event then', async () => {
    const user = await signedInUser(h, realm.uid);
    const { uuid } = await startFor(h, realm.uid, loan.id, user.id, { start: false });
    expect(await eventsOf(h, user.id, 'origination_submission_started_log')).toHaveLength(0);
    h.clock.advanceMinutes(5);
    const body = (await answer(user, uuid, form().uid, await validAnswers(user))).json();
    expect(body).toMatchObject({ status: 'pending', started_at: h.clock.now().toISOString(), due_status_label: '(on track)', progress: '25%' });
    expect(body.due_deadline_at).toBe(new Date(h.clock.now().getTime() + 10 * DAY).toISOString());
    expect(await eventsOf(h, user.id, 'origination_submission_started_log')).toHaveLength(1);
  });
});
