import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submissionTasks, submissions } from '../../src/tables/originations.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';
import { signedInUser } from '../notifications/fixtures.js';
import { admin, asUser, eventsOf, makeOrigination, startFor, tasksOf, type OriginationBody } from './fixtures.js';

const TWO_STEPS = {
  name: 'Quick', deadline_days: 3, steps: [
    { name: 'Form', tasks: [{ name: 'Name', type: 'input', questions: [{ label: 'Name', type: 'text' }] }] },
    { name: 'Review', tasks: [{ name: 'Check', type: 'pending_review' }] },
    { name: 'Sign', tasks: [{ name: 'Accept', type: 'confirmation' }] },
  ],
};

describe('originations under concurrency', () => {
  let h: Harness;
  let realm: { uid: string };
  let quick: OriginationBody;

  beforeAll(async () => {
    h = await startHarness();
    realm = await makeRealm(h);
    quick = await makeOrigination(h, realm.uid, TWO_STEPS);
  });
  afterAll(async () => { await h?.close(); });

  const [form, review, accept] = [0, 1, 2].map((i) => () => tasksOf(quick)[i]);
  const sub = (id: number, path = '') => `/customers/${realm.uid}/submissions/${id}${path}`;

  it('completes a submission once when its last task is answered by 50 parallel requests', async () => {
    const user = await signedInUser(h, realm.uid);
    const { uuid, id } = await startFor(h, realm.uid, quick.id, user.id);
    const answer = (taskUid: string, fields: Record<string, unknown>) =>
      asUser(h, user.headers, 'PUT', realm.uid, `/submissions/${uuid}/tasks/${taskUid}`, { fields });
    expect((await answer(form().uid, { [form().questions[0].id]: 'Ada' })).statusCode).toBe(200);
    expect((await admin(h, 'POST', sub(id, `/tasks/${review().uid}/complete`))).statusCode).toBe(200);
    const answers = await Promise.all(Array.from({ length: 50 }, () => answer(accept().uid, {})));
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(await eventsOf(h, user.id, 'origination_submission_completed_log')).toHaveLength(1);
    expect(await h.ctx.db.select().from(submissionTasks).where(eq(submissionTasks.submissionId, id))).toHaveLength(3);
  });

  it('completes a review once under 50 parallel reviewer requests', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const { id } = await startFor(h, realm.uid, quick.id, user.id, { start: false });
    await h.ctx.db.update(submissions).set({ status: 'pending' }).where(eq(submissions.id, id));
    await h.ctx.db.insert(submissionTasks).values({ submissionId: id, taskUid: form().uid, fields: {}, completedAt: h.clock.now() });
    const results = await Promise.all(Array.from({ length: 50 }, () => admin(h, 'POST', sub(id, `/tasks/${review().uid}/complete`))));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(49);
    expect((await admin(h, 'GET', sub(id))).json().progress).toBe('66%');
  });

  it('an answer racing a cancel is either whole before it or refused after it, never half-written', async () => {
    for (let round = 0; round < 10; round++) {
      const user = await signedInUser(h, realm.uid);
      const { uuid, id } = await startFor(h, realm.uid, quick.id, user.id, { start: false });
      const [answered, canceled] = await Promise.all([
        asUser(h, user.headers, 'PUT', realm.uid, `/submissions/${uuid}/tasks/${form().uid}`, { fields: { [form().questions[0].id]: 'Ada' } }),
        admin(h, 'POST', sub(id, '/cancel'), { reason: 'Closed branch' }),
      ]);
      expect(canceled.statusCode).toBe(200);
      const [row] = await h.ctx.db.select().from(submissions).where(eq(submissions.id, id));
      const responses = await h.ctx.db.select().from(submissionTasks).where(eq(submissionTasks.submissionId, id));
      const started = await eventsOf(h, user.id, 'origination_submission_started_log');
      expect(row.status).toBe('canceled');
      if (answered.statusCode === 200) {
        // The answer went first, whole: its response, the start and its event.
        expect([responses.length, started.length, row.startedAt !== null]).toEqual([1, 1, true]);
      } else {
        expect(answered.statusCode).toBe(409);
        expect([responses.length, started.length, row.startedAt]).toEqual([0, 0, null]);
      }
    }
  });
});
