import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.js';
import { acceptedResponses } from '../../src/forms/respond.js';
import { startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { mailText, type SmtpListener } from '../helpers/smtp.js';
import { makeForm, ok, pageToken, postPage, responses } from './helpers.js';

let h: Harness;
let smtp: SmtpListener;

beforeAll(async () => { ({ h, smtp } = await startHarnessWithSmtp()); });
afterAll(async () => { await h?.close(); });

const FIELDS = [{ name: 'email', type: 'email', required: true, labels: { en: 'Email' } }];
const simpleForm = (body: Record<string, unknown> = {}) => makeForm(h, { fields: FIELDS, steps: [], notify_emails: ['desk@example.com'], ...body });
const definition = async (uid: string) => ok(await h.request({ method: 'GET', url: `/api/content/forms/${uid}`, token: null }));
const answer = (uid: string, payload: Record<string, unknown>, ip = '10.0.0.1') =>
  h.request({ method: 'POST', url: `/api/content/forms/${uid}/responses`, token: null, payload, remoteAddress: ip });

describe('spam', () => {
  it('stores caught responses as spam with the reason, answered like a real one, never notified', async () => {
    const form = await simpleForm({ spam: { min_fill_seconds: 3, rate_limit_per_hour: 100 } });
    const real = await definition(form.uid);
    h.clock.advance(4_000);
    const good = await answer(form.uid, { token: real.token, answers: { email: 'real@example.com' } });
    expect(good.statusCode, good.body).toBe(201);

    const replay = await answer(form.uid, { token: real.token, answers: { email: 'replay@example.com' } });
    const fast = await answer(form.uid, { token: (await definition(form.uid)).token, answers: { email: 'fast@example.com' } });
    const late = await definition(form.uid);
    h.clock.advance(4_000);
    const honey = await answer(form.uid, { token: late.token, answers: { email: 'honey@example.com' }, website_URL: 'http://spam' });
    const forged = await answer(form.uid, { token: `${late.token.slice(0, -2)}xx`, answers: { email: 'forged@example.com' } });
    for (const res of [replay, fast, honey, forged]) {
      expect(res.statusCode, res.body).toBe(201);
      expect(res.body).toBe(good.body);
      expect(res.headers['content-length']).toBe(good.headers['content-length']);
    }
    // The hosted page's honeypot and speed are judged by the same operation.
    const pageSpam = await postPage(h, form.uid, { email: 'page@example.com', form_token: await pageToken(h, form.uid) });
    expect(pageSpam.statusCode).toBe(201);

    const caught = await responses(h, form.uid, '&status=spam');
    const reasons = Object.fromEntries(caught.map((r: { email: string; spam_reason: string }) => [r.email, r.spam_reason]));
    expect(reasons).toEqual({
      'replay@example.com': 'replayed_token', 'fast@example.com': 'too_fast', 'honey@example.com': 'honeypot', 'forged@example.com': 'bad_token', 'page@example.com': 'too_fast',
    });
    expect((await ok(await h.request({ method: 'GET', url: `/api/admin/forms/${form.uid}` }))).response_count).toBe(1);
    expect(mailText(await smtp.next('desk@example.com'))).toContain('real@example.com');

    // "Not spam" counts it and notifies then.
    const fastOne = caught.find((r: { email: string }) => r.email === 'fast@example.com');
    const marked = await ok(await h.request({ method: 'PUT', url: `/api/admin/forms/${form.uid}/responses/${fastOne.id}`, payload: { status: 'received' } }));
    expect(marked).toMatchObject({ status: 'received', spam_reason: null });
    expect(mailText(await smtp.next('desk@example.com'))).toContain('fast@example.com');
    expect(smtp.received.filter((m) => m.to.includes('desk@example.com'))).toHaveLength(2);
  });

  it('takes one token once under 20 parallel posts, with or without a transaction: the rest are stored as replays', async () => {
    // Without notification addresses nothing else is written with a response: one statement each.
    for (const notify of [[], ['desk@example.com']]) {
      const form = await simpleForm({ notify_emails: notify, spam: { min_fill_seconds: 0, rate_limit_per_hour: 0 } });
      const { token } = await definition(form.uid);
      const sent = await Promise.all(Array.from({ length: 20 }, (_, i) => answer(form.uid, { token, answers: { email: `r${i}@example.com` } })));
      expect(sent.map((res) => res.statusCode)).toEqual(Array(20).fill(201));
      expect(await responses(h, form.uid, '&status=received')).toHaveLength(1);
      const caught = await responses(h, form.uid, '&status=spam');
      expect(caught.map((r: { spam_reason: string }) => r.spam_reason)).toEqual(Array(19).fill('replayed_token'));
    }
  });

  it('limits submissions per address, caught ones too: 429 past the limit under 30 parallel posts', async () => {
    const form = await simpleForm({ spam: { min_fill_seconds: 0, rate_limit_per_hour: 10 } });
    const tokens = await Promise.all(Array.from({ length: 30 }, () => definition(form.uid)));
    const sent = await Promise.all(tokens.map((d, i) => answer(form.uid, { token: d.token, answers: { email: `p${i}@example.com` }, ...(i % 2 ? { website_URL: 'x' } : {}) }, '10.9.9.9')));
    const statuses = sent.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    expect(sent.find((r) => r.statusCode === 429)!.headers['atrium-error-code']).toBe('ATR_FORM_RATE_LIMITED');
    expect((await answer(form.uid, { token: (await definition(form.uid)).token, answers: { email: 'other@example.com' } }, '10.9.9.8')).statusCode).toBe(201);
    h.clock.advance(3_600_000);
    expect((await answer(form.uid, { token: (await definition(form.uid)).token, answers: { email: 'later@example.com' } }, '10.9.9.9')).statusCode).toBe(201);
  });

  it('holds max_responses under 50 parallel posts: the rest 410, nothing half-written', async () => {
    const form = await simpleForm({ max_responses: 7, spam: { min_fill_seconds: 0, rate_limit_per_hour: 0 } });
    const tokens = await Promise.all(Array.from({ length: 50 }, () => definition(form.uid)));
    const sent = await Promise.all(tokens.map((d, i) => answer(form.uid, { token: d.token, answers: { email: `m${i}@example.com` } }, `10.1.0.${i}`)));
    expect(sent.filter((r) => r.statusCode === 201)).toHaveLength(7);
    const full = sent.filter((r) => r.statusCode === 410);
    expect(full).toHaveLength(43);
    expect(full[0].json().errors[0]).toContain('maximum number of responses');
    expect(await responses(h, form.uid)).toHaveLength(7);
    expect((await ok(await h.request({ method: 'GET', url: `/api/admin/forms/${form.uid}` }))).response_count).toBe(7);
  });

  // Each view and post of a form with a maximum counts its accepted responses: however much spam it caught, none is read.
  it('counts the accepted responses of a form with a maximum from their own index', async () => {
    const plan = await h.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return rowsOf<{ 'QUERY PLAN': string }>(await tx.execute(sql`explain ${acceptedResponses(tx, 1).getSQL()}`));
    });
    expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toMatch(/Index Only Scan using form_responses_received_idx/);
  });

  it('refuses a 10 MB answer by the body limit', async () => {
    const form = await simpleForm();
    const res = await answer(form.uid, { token: (await definition(form.uid)).token, answers: { email: 'x'.repeat(10 * 1024 * 1024) } });
    expect(res.statusCode).toBe(413);
  });
});

describe('used form tokens', () => {
  it('are pruned by the expired-rows job once a replay would be refused as an old token anyway', async () => {
    const { removeExpiredRows } = await import('../../src/maintenance/expired-rows.js');
    const form = await simpleForm({ spam: { min_fill_seconds: 0, rate_limit_per_hour: 0 } });
    const def = await definition(form.uid);
    expect((await answer(form.uid, { token: def.token, answers: { email: 'once@example.com' } })).statusCode).toBe(201);
    h.clock.advance(3 * 24 * 3_600_000);
    expect((await removeExpiredRows(h.ctx)).form_token_uses).toBeGreaterThanOrEqual(1);
    expect((await answer(form.uid, { token: def.token, answers: { email: 'again@example.com' } })).statusCode).toBe(201);
    const caught = await responses(h, form.uid, '&status=spam');
    expect(caught.map((r: { email: string; spam_reason: string }) => [r.email, r.spam_reason])).toEqual([['again@example.com', 'bad_token']]);
  });
});
