import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken } from '../helpers/realms.js';
import { admin, LOAN, makeOrigination, startFor, tasksOf } from './fixtures.js';

describe('admin API: originations and reviewer groups', () => {
  let h: Harness;
  let realm: { uid: string };

  beforeAll(async () => {
    h = await startHarness();
    realm = await makeRealm(h);
  });
  afterAll(async () => { await h?.close(); });

  const url = (path = '') => `/customers/${realm.uid}/originations${path}`;

  it('creates an origination: tasks get a uid, questions an integer id, and it reads back the same', async () => {
    const created = await makeOrigination(h, realm.uid);
    expect(Object.keys(created).sort()).toEqual(['created_at', 'deadline_days', 'id', 'name', 'steps', 'updated_at', 'uuid']);
    expect(created).toMatchObject({ name: 'Personal loan', deadline_days: 10 });
    expect(created.steps.map((s) => [s.name, s.tasks.map((t) => t.type)])).toEqual([
      ['Your details', ['input']], ['Review', ['pending_review', 'validation']], ['Signature', ['confirmation']],
    ]);
    const [form, review] = tasksOf(created);
    expect(form.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(form.questions.map((q) => [Number.isInteger(q.id), q.label, q.type])).toEqual([
      [true, 'Full name', 'text'], [true, 'Monthly income', 'number'], [true, 'Birth date', 'date'], [true, 'Purpose', 'choice'], [true, 'Payslip', 'file'],
    ]);
    expect(form.questions[3].options).toEqual(['car', 'home']);
    expect(review).toMatchObject({ content: 'We are checking your documents.', questions: [] });
    expect((await admin(h, 'GET', url(`/${created.id}`))).json()).toEqual(created);
    const list = (await admin(h, 'GET', url())).json();
    expect(list.originations.map((o: { id: number }) => o.id)).toContain(created.id);
    expect(list.meta).toMatchObject({ current_page: 1, per_page: 10 });
  });

  it('refuses a structure the schema cannot catch with 422 naming each problem', async () => {
    const bad = (steps: unknown, extra: Record<string, unknown> = {}) => admin(h, 'POST', url(), { name: 'Bad', steps, ...extra });
    const cases: [unknown, string, Record<string, unknown>?][] = [
      [[{ name: 'S', tasks: [{ name: 'T', type: 'input' }] }], 'steps.0.tasks.0.questions'],
      [[{ name: 'S', tasks: [{ name: 'T', type: 'validation', questions: [{ label: 'Q', type: 'text' }] }] }], 'steps.0.tasks.0.questions'],
      [[{ name: 'S', tasks: [{ name: 'T', type: 'input', questions: [{ label: 'Q', type: 'text', options: ['a'] }] }] }], 'steps.0.tasks.0.questions.0.options'],
      [[{ name: 'S', tasks: [{ name: 'T', type: 'input', questions: [{ label: 'Q', type: 'choice', options: ['a', 'a'] }] }] }], 'steps.0.tasks.0.questions.0.options'],
      [[{ name: 'S', tasks: [{ uid: '00000000-0000-0000-0000-000000000000', name: 'T', type: 'confirmation' }] }], 'steps.0.tasks.0.uid'],
      [[{ name: 'S', tasks: [{ name: 'T', type: 'input', questions: [{ id: 1, label: 'Q', type: 'text' }] }] }], 'steps.0.tasks.0.questions.0.id'],
      [[{ name: 'S', tasks: [{ name: 'T', type: 'wizardry' }] }], 'steps.0.tasks.0.type'],
      [[{ name: 'S', tasks: [] }], 'steps.0.tasks'],
      [[], 'steps'],
      [[{ name: 'S', tasks: [{ name: 'T', type: 'confirmation' }] }], 'deadline_days', { deadline_days: 0 }],
      [[{ name: 'S', tasks: [{ name: 'T', type: 'confirmation' }] }], 'deadline_days', { deadline_days: 2 ** 40 }],
      [[{ name: 'S', tasks: [{ name: 'T', type: 'confirmation' }] }], 'name', { name: '  ' }],
    ];
    for (const [steps, field, extra] of cases) {
      const res = await bad(steps, extra);
      expect(res.statusCode, JSON.stringify(steps)).toBe(422);
      expect(res.json().details.map((d: { field: string }) => d.field).join(' '), JSON.stringify(steps)).toContain(field);
    }
  });

  it('changes an origination partially; tasks and questions named by uid and id keep them, others are added or removed', async () => {
    const created = await makeOrigination(h, realm.uid);
    const [form, review, validation] = tasksOf(created);
    const renamed = await admin(h, 'PUT', url(`/${created.id}`), { name: 'Car loan', deadline_days: null });
    expect(renamed.json()).toMatchObject({ name: 'Car loan', deadline_days: null, steps: created.steps });
    const steps = [
      { name: 'Checks', tasks: [{ uid: validation.uid, name: 'Identity', type: 'validation' }] },
      {
        name: 'Form', tasks: [{
          uid: form.uid, name: 'About you', type: 'input',
          questions: [{ id: form.questions[4].id, label: 'Payslip (PDF)', type: 'file' }, { label: 'Employer', type: 'text' }],
        }],
      },
    ];
    const changed = (await admin(h, 'PUT', url(`/${created.id}`), { steps })).json();
    expect(changed.name).toBe('Car loan');
    const [first, second] = tasksOf(changed);
    expect([first.uid, second.uid]).toEqual([validation.uid, form.uid]);
    expect(second.questions[0]).toEqual({ id: form.questions[4].id, label: 'Payslip (PDF)', type: 'file', options: [] });
    expect(second.questions[1].id).toBeGreaterThan(form.questions[4].id);
    expect(tasksOf(changed).map((t) => t.uid)).not.toContain(review.uid);
    // A question of another origination cannot be taken over.
    const other = await makeOrigination(h, realm.uid);
    const stolen = await admin(h, 'PUT', url(`/${other.id}`), { steps: [{ name: 'S', tasks: [{ name: 'T', type: 'input', questions: [{ id: form.questions[4].id, label: 'Q', type: 'file' }] }] }] });
    expect(stolen.statusCode).toBe(422);
    expect(stolen.json().details[0].field).toBe('steps.0.tasks.0.questions.0.id');
  });

  it('deletes an origination without submissions; one with submissions answers 409 and stays', async () => {
    const unused = await makeOrigination(h, realm.uid);
    expect((await admin(h, 'DELETE', url(`/${unused.id}`))).statusCode).toBe(204);
    expect((await admin(h, 'GET', url(`/${unused.id}`))).statusCode).toBe(404);
    const used = await makeOrigination(h, realm.uid);
    const user = await makeRealmUser(h, realm.uid);
    await startFor(h, realm.uid, used.id, user.id);
    const res = await admin(h, 'DELETE', url(`/${used.id}`));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ errors: ['The origination has submissions: it cannot be deleted'], code: 'ATR_ORIGINATION_IN_USE' });
    expect((await admin(h, 'GET', url(`/${used.id}`))).statusCode).toBe(200);
  });

  it('answers 404 for an origination of another realm, an unknown realm, and 422 for an id past 32 bits', async () => {
    const elsewhere = await makeRealm(h);
    const theirs = await makeOrigination(h, elsewhere.uid);
    expect((await admin(h, 'GET', url(`/${theirs.id}`))).statusCode).toBe(404);
    expect((await admin(h, 'PUT', url(`/${theirs.id}`), { name: 'Mine' })).statusCode).toBe(404);
    expect((await admin(h, 'DELETE', url(`/${theirs.id}`))).statusCode).toBe(404);
    expect((await admin(h, 'GET', '/customers/no-such-realm/originations')).statusCode).toBe(404);
    expect((await admin(h, 'GET', url(`/${2 ** 40}`))).statusCode).toBe(422);
  });

  it('lets a realm viewer read and refuses it changes (403); a role of another realm reaches nothing', async () => {
    const created = await makeOrigination(h, realm.uid);
    const viewer = await memberToken(h, [{ key: 'realm_viewer', target: realm.uid }]);
    expect((await admin(h, 'GET', url(), undefined, viewer)).statusCode).toBe(200);
    expect((await admin(h, 'GET', url(`/${created.id}`), undefined, viewer)).statusCode).toBe(200);
    expect((await admin(h, 'POST', url(), LOAN, viewer)).statusCode).toBe(403);
    expect((await admin(h, 'PUT', url(`/${created.id}`), { name: 'X' }, viewer)).statusCode).toBe(403);
    expect((await admin(h, 'DELETE', url(`/${created.id}`), undefined, viewer)).statusCode).toBe(403);
    expect((await admin(h, 'POST', `/customers/${realm.uid}/groups`, { name: 'Viewers' }, viewer)).statusCode).toBe(403);
    const outsider = await memberToken(h, [{ key: 'realm_admin', target: (await makeRealm(h)).uid }]);
    expect((await admin(h, 'GET', url(), undefined, outsider)).statusCode).toBe(403);
    const manager = await memberToken(h, [{ key: 'realm_admin', target: realm.uid }]);
    expect((await admin(h, 'POST', url(), LOAN, manager)).statusCode).toBe(201);
    expect((await admin(h, 'GET', url(), undefined, null)).statusCode).toBe(401);
  });

  describe('reviewer groups', () => {
    async function reviewer(roles = [{ key: 'realm_user', target: realm.uid }]) {
      await memberToken(h, roles);
      const members = (await admin(h, 'GET', '/team_members?per_page=100&sort_by=id&order=desc')).json().team_members;
      return members[0].id as number;
    }

    it('creates, lists, changes and deletes groups whose members may review the realm', async () => {
      const a = await reviewer();
      const b = await reviewer();
      const created = await admin(h, 'POST', `/customers/${realm.uid}/groups`, { name: 'Underwriters', member_ids: [a, b, a] });
      expect(created.statusCode, created.body).toBe(201);
      const group = created.json();
      expect(Object.keys(group).sort()).toEqual(['created_at', 'id', 'members', 'name', 'updated_at']);
      expect(group.members.map((m: { id: number }) => m.id)).toEqual([a, b].sort((x, y) => x - y));
      expect(Object.keys(group.members[0]).sort()).toEqual(['email', 'id', 'name']);
      expect((await admin(h, 'POST', `/customers/${realm.uid}/groups`, { name: 'UNDERWRITERS' })).statusCode).toBe(422);
      const changed = (await admin(h, 'PUT', `/customers/${realm.uid}/groups/${group.id}`, { member_ids: [b] })).json();
      expect(changed).toMatchObject({ name: 'Underwriters', members: [{ id: b }] });
      const list = (await admin(h, 'GET', `/customers/${realm.uid}/groups`)).json();
      expect(list.groups.map((g: { id: number }) => g.id)).toContain(group.id);
      expect((await admin(h, 'DELETE', `/customers/${realm.uid}/groups/${group.id}`)).statusCode).toBe(204);
      expect((await admin(h, 'GET', `/customers/${realm.uid}/groups/${group.id}`)).statusCode).toBe(404);
    });

    it('refuses members who may not review this realm, and unknown members, with 422', async () => {
      const viewer = await reviewer([{ key: 'realm_viewer', target: realm.uid }]);
      const elsewhere = await reviewer([{ key: 'realm_user', target: (await makeRealm(h)).uid }]);
      for (const ids of [[viewer], [elsewhere], [2 ** 31 - 1]]) {
        const res = await admin(h, 'POST', `/customers/${realm.uid}/groups`, { name: `Group ${ids[0]}`, member_ids: ids });
        expect(res.statusCode).toBe(422);
        expect(res.json().details[0].field).toBe('member_ids');
      }
      expect((await admin(h, 'POST', `/customers/${realm.uid}/groups`, { name: 'Huge', member_ids: [2 ** 40] })).statusCode).toBe(422);
    });
  });
});
