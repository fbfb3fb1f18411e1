import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { counters } from '../../src/metrics/counters.js';
import { runDueJobs } from '../../src/jobs/runner.js';
import { expiredRowsJob } from '../../src/maintenance/expired-rows.js';
import { rowsOf } from '../../src/db/rows.js';
import { claimStatement } from '../../src/webhooks/sender.js';
import { drainWebhooks, nextDueStatement, webhookWorker } from '../../src/webhooks/worker.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm } from '../helpers/realms.js';
import { emit } from './emit.js';
import { startReceiver, type Answer, type Receiver } from './receiver.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let h: Harness;
let realm: { uid: string };
let other: { uid: string };
let receiver: Receiver;

beforeAll(async () => {
  h = await startHarness({ WEBHOOKS_ALLOW_PRIVATE: '1' });
  realm = await makeRealm(h);
  other = await makeRealm(h);
});
afterEach(async () => {
  await receiver?.close();
  // Each test starts with no endpoint left subscribing.
  const list = await h.request({ method: 'GET', url: '/api/admin/webhooks?per_page=100' });
  for (const w of list.json().webhooks) await h.request({ method: 'DELETE', url: `/api/admin/webhooks/${w.id}` });
});
afterAll(async () => { await h?.close(); });

async function endpoint(answer: Answer, body: Record<string, unknown> = {}) {
  receiver = await startReceiver(h.clock, answer);
  const res = await h.request({ method: 'POST', url: '/api/admin/webhooks', payload: { url: `${receiver.url}/hook`, event_types: ['realm_user.updated'], ...body } });
  expect(res.statusCode, res.body).toBe(201);
  receiver.secrets.push(res.json().secret);
  return res.json() as { id: number; secret: string };
}

const deliveries = async (id: number) => {
  const res = await h.request({ method: 'GET', url: `/api/admin/webhooks/${id}/deliveries` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().deliveries;
};
const show = async (id: number) => (await h.request({ method: 'GET', url: `/api/admin/webhooks/${id}` })).json();
const seconds = () => Math.floor(h.clock.now().getTime() / 1000);

describe('webhook deliveries', () => {
  it('sends {type, timestamp, data} signed; a receiver failing three times gets the same webhook-id four times, at 5 s, 5 min and 30 min', async () => {
    const hook = await endpoint((n) => ({ status: n < 3 ? 500 : 204, body: n < 3 ? 'try later' : '' }));
    await emit(h, 'realm_user.updated', realm.uid, { id: 7, changed: ['first_name'] });
    const times: number[] = [];
    await drainWebhooks(h.ctx);
    times.push(seconds());
    for (const wait of [5 * SECOND, 5 * MINUTE, 30 * MINUTE]) {
      h.clock.advance(wait - SECOND);
      await drainWebhooks(h.ctx);
      const before = receiver.received.length;
      h.clock.advance(SECOND);
      await drainWebhooks(h.ctx);
      expect(receiver.received.length, 'nothing is sent before its time').toBe(before + 1);
      times.push(seconds());
    }
    h.clock.advance(DAY);
    await drainWebhooks(h.ctx);
    expect(receiver.received).toHaveLength(4);
    const ids = new Set(receiver.received.map((r) => r.id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(receiver.received.map((r) => r.verifiedWith)).toEqual(Array(4).fill([hook.secret]));
    expect(receiver.received.map((r) => r.timestamp)).toEqual(times);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    expect(receiver.received[0].headers['content-type']).toBe('application/json');
    const payload = JSON.parse(receiver.received[0].body);
    expect(payload).toEqual({ type: 'realm_user.updated', timestamp: expect.any(String), data: { realm_uid: realm.uid, id: 7, changed: ['first_name'] } });

    const [delivery] = await deliveries(hook.id);
    expect(delivery).toMatchObject({ webhook_id: [...ids][0], event_type: 'realm_user.updated', status: 'succeeded', attempts_count: 4, next_attempt_at: null, last_status_code: 204 });
    expect(delivery.attempts.map((a: { outcome: string; status_code: number }) => [a.outcome, a.status_code])).toEqual([
      ['failed', 500], ['failed', 500], ['failed', 500], ['succeeded', 204],
    ]);
    expect(delivery.attempts[0].response).toBe('try later');
    expect(delivery.attempts[0].duration_ms).toBeGreaterThanOrEqual(0);
    expect((await show(hook.id)).failing_since).toBeNull();
  });

  it('sends a test event to one endpoint on demand, signed, whatever it subscribes to; refused for an inactive endpoint', async () => {
    const hook = await endpoint(() => ({ status: 204 }));
    const res = await h.request({ method: 'POST', url: `/api/admin/webhooks/${hook.id}/test` });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ event_type: 'webhook.test', status: 'pending', attempts_count: 0 });
    await drainWebhooks(h.ctx);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0].verifiedWith).toEqual([hook.secret]);
    expect(JSON.parse(receiver.received[0].body)).toEqual({
      type: 'webhook.test', timestamp: expect.any(String), data: { webhook_endpoint_id: hook.id, message: 'A test event sent from the administration' },
    });
    const [delivery] = await deliveries(hook.id);
    expect(delivery).toMatchObject({ id: res.json().id, webhook_id: receiver.received[0].id, event_type: 'webhook.test', status: 'succeeded', last_status_code: 204 });
    // Nothing else heard of it: the event type is no subscriber's.
    await emit(h, 'webhook.test', realm.uid);
    await drainWebhooks(h.ctx);
    expect(receiver.received).toHaveLength(1);

    await h.request({ method: 'PUT', url: `/api/admin/webhooks/${hook.id}`, payload: { active: false } });
    const refused = await h.request({ method: 'POST', url: `/api/admin/webhooks/${hook.id}/test` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('ATR_WEBHOOK_INACTIVE');
    expect((await h.request({ method: 'POST', url: '/api/admin/webhooks/2147483647/test' })).statusCode).toBe(404);
    expect((await h.request({ method: 'POST', url: `/api/admin/webhooks/${hook.id}/test`, token: null })).statusCode).toBe(401);
  });

  it('shows the next try while pending; after the whole schedule fails, the delivery is failed; a resend tries once more with the same id', async () => {
    const hook = await endpoint(() => ({ status: 503 }));
    await emit(h, 'realm_user.updated', realm.uid);
    await drainWebhooks(h.ctx);
    const [pending] = await deliveries(hook.id);
    expect(pending).toMatchObject({ status: 'pending', attempts_count: 1 });
    expect(Date.parse(pending.next_attempt_at) - h.clock.now().getTime()).toBe(5 * SECOND);
    expect((await show(hook.id)).failing_since).toBe(h.clock.now().toISOString());
    for (const wait of [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]) {
      h.clock.advance(wait);
      await drainWebhooks(h.ctx);
    }
    expect(receiver.received).toHaveLength(8);
    const [failed] = await deliveries(hook.id);
    expect(failed).toMatchObject({ status: 'failed', attempts_count: 8, next_attempt_at: null, last_status_code: 503 });
    h.clock.advance(DAY);
    await drainWebhooks(h.ctx);
    expect(receiver.received).toHaveLength(8);

    receiver.answer = () => ({ status: 200 });
    const retried = await h.request({ method: 'POST', url: `/api/admin/webhooks/deliveries/${failed.id}/retry` });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toMatchObject({ status: 'pending', next_attempt_at: h.clock.now().toISOString() });
    await drainWebhooks(h.ctx);
    expect(receiver.received).toHaveLength(9);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
    expect((await deliveries(hook.id))[0]).toMatchObject({ status: 'succeeded', attempts_count: 9 });
  });

  it('turns the endpoint off on a 410 answer; nothing more is queued or sent to it, and a resend is refused until it is on again', async () => {
    const hook = await endpoint(() => ({ status: 410 }));
    await emit(h, 'realm_user.updated', realm.uid);
    await drainWebhooks(h.ctx);
    const shown = await show(hook.id);
    expect(shown).toMatchObject({ active: false });
    expect(shown.disabled_reason).toContain('410');
    expect(shown.disabled_at).toBe(h.clock.now().toISOString());
    await emit(h, 'realm_user.updated', realm.uid);
    h.clock.advance(HOUR);
    await drainWebhooks(h.ctx);
    expect(receiver.received).toHaveLength(1);
    const list = await deliveries(hook.id);
    expect(list).toHaveLength(1);
    const retry = await h.request({ method: 'POST', url: `/api/admin/webhooks/deliveries/${list[0].id}/retry` });
    expect(retry.statusCode).toBe(409);

    receiver.answer = () => ({ status: 204 });
    const on = await h.request({ method: 'PUT', url: `/api/admin/webhooks/${hook.id}`, payload: { active: true } });
    expect(on.json()).toMatchObject({ active: true, disabled_reason: null, failing_since: null });
    expect((await h.request({ method: 'POST', url: `/api/admin/webhooks/deliveries/${list[0].id}/retry` })).statusCode).toBe(200);
    await drainWebhooks(h.ctx);
    expect(receiver.received).toHaveLength(2);
  });

  it('turns off an endpoint that has failed for five days, saying why in its record; a success clears failing_since', async () => {
    const hook = await endpoint(() => ({ status: 500 }));
    await emit(h, 'realm_user.updated', realm.uid);
    await drainWebhooks(h.ctx);
    const since = h.clock.now().toISOString();
    receiver.answer = () => ({ status: 200 });
    await emit(h, 'realm_user.updated', realm.uid);
    await drainWebhooks(h.ctx);
    expect((await show(hook.id)).failing_since).toBeNull();

    receiver.answer = () => ({ status: 500 });
    h.clock.advance(HOUR);
    await emit(h, 'realm_user.updated', realm.uid);
    await drainWebhooks(h.ctx);
    const failingSince = h.clock.now().toISOString();
    expect(failingSince).not.toBe(since);
    expect((await show(hook.id)).failing_since).toBe(failingSince);
    // Still failing a little under five days on: kept on.
    h.clock.advance(5 * DAY - MINUTE);
    await emit(h, 'realm_user.updated', realm.uid);
    await drainWebhooks(h.ctx);
    expect((await show(hook.id)).active).toBe(true);
    h.clock.advance(MINUTE);
    await emit(h, 'realm_user.updated', realm.uid);
    await drainWebhooks(h.ctx);
    const off = await show(hook.id);
    expect(off).toMatchObject({ active: false, failing_since: failingSince });
    expect(off.disabled_reason).toContain('five days');
    expect(off.disabled_reason).toContain(failingSince.replace(/\.\d{3}Z$/, 'Z'));
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    const hook = await endpoint(() => ({ status: 302, headers: { location: '/elsewhere' } }));
    await emit(h, 'realm_user.updated', realm.uid);
    await drainWebhooks(h.ctx);
    expect(receiver.received).toHaveLength(1);
    const [delivery] = await deliveries(hook.id);
    expect(delivery).toMatchObject({ status: 'pending', last_status_code: 302 });
    expect(delivery.attempts[0]).toMatchObject({ outcome: 'failed', status_code: 302 });
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const hook = await endpoint(() => ({ status: 204 }));
    const rotated = (await h.request({ method: 'POST', url: `/api/admin/webhooks/${hook.id}/rotate_secret` })).json();
    receiver.secrets.push(rotated.secret);
    await emit(h, 'realm_user.updated', realm.uid);
    await drainWebhooks(h.ctx);
    h.clock.advance(DAY - SECOND);
    await emit(h, 'realm_user.updated', realm.uid);
    await drainWebhooks(h.ctx);
    h.clock.advance(SECOND);
    await emit(h, 'realm_user.updated', realm.uid);
    await drainWebhooks(h.ctx);
    expect(receiver.received.map((r) => r.signatures.length)).toEqual([2, 2, 1]);
    expect(receiver.received.map((r) => r.signatures.every((s) => s.startsWith('v1,')))).toEqual([true, true, true]);
    expect(receiver.received.map((r) => r.verifiedWith)).toEqual([[hook.secret, rotated.secret], [hook.secret, rotated.secret], [rotated.secret]]);
    expect((await show(hook.id)).previous_secret_expires_at).toBeNull();
  });

  it('sends only the types and realms an endpoint subscribes to', async () => {
    const hook = await endpoint(() => ({ status: 204 }), { realm_uids: [realm.uid], event_types: ['realm_user.updated', 'realm_user.created'] });
    await emit(h, 'realm_user.updated', other.uid);
    await emit(h, 'realm_user.deleted', realm.uid);
    await emit(h, 'delivery.completed', null);
    await emit(h, 'realm_user.created', realm.uid);
    await drainWebhooks(h.ctx);
    expect(receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(['realm_user.created']);
    const changed = await h.request({ method: 'PUT', url: `/api/admin/webhooks/${hook.id}`, payload: { realm_uids: 'all', event_types: ['delivery.completed'] } });
    expect(changed.statusCode, changed.body).toBe(200);
    await emit(h, 'delivery.completed', null);
    await emit(h, 'realm_user.created', realm.uid);
    await drainWebhooks(h.ctx);
    expect(receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(['realm_user.created', 'delivery.completed']);
  });

  it('records a round with several endpoints each on its own: one failing, one succeeding, one gone', async () => {
    const failing = await endpoint(() => ({ status: 500 }));
    const failingReceiver = receiver;
    const gone = await endpoint(() => ({ status: 410 }));
    const goneReceiver = receiver;
    const fine = await endpoint(() => ({ status: 204 }));
    await emit(h, 'realm_user.updated', realm.uid);
    await emit(h, 'realm_user.updated', realm.uid);
    await drainWebhooks(h.ctx);
    expect([failingReceiver, goneReceiver, receiver].map((r) => r.received.length)).toEqual([2, 2, 2]);
    expect(await show(failing.id)).toMatchObject({ active: true, failing_since: h.clock.now().toISOString() });
    expect(await show(gone.id)).toMatchObject({ active: false });
    expect(await show(fine.id)).toMatchObject({ active: true, failing_since: null });
    expect((await deliveries(fine.id)).map((d: { status: string }) => d.status)).toEqual(['succeeded', 'succeeded']);
    expect((await deliveries(failing.id)).map((d: { status: string }) => d.status)).toEqual(['pending', 'pending']);
    await failingReceiver.close();
    await goneReceiver.close();
  });

  it('takes over a delivery whose sender died holding it, once its lease has run out', async () => {
    const hook = await endpoint(() => ({ status: 204 }));
    await emit(h, 'realm_user.updated', realm.uid);
    // What a sender that claimed the row and then died leaves behind: a lease of 60 s, no report.
    await h.ctx.db.execute(sql`update webhook_deliveries set lease_until = ${new Date(h.clock.now().getTime() + MINUTE).toISOString()}::timestamptz`);
    await drainWebhooks(h.ctx);
    expect(receiver.received).toHaveLength(0);
    const held = (await deliveries(hook.id))[0];
    const retry = await h.request({ method: 'POST', url: `/api/admin/webhooks/deliveries/${held.id}/retry` });
    expect(retry.statusCode, 'a resend while a sender holds it').toBe(409);
    h.clock.advance(MINUTE);
    await drainWebhooks(h.ctx);
    expect(receiver.received).toHaveLength(1);
    expect((await deliveries(hook.id))[0]).toMatchObject({ status: 'succeeded', attempts_count: 1 });
  });

  it('looks for due rows endpoint by endpoint: the backlog of an endpoint that is off is never read', async () => {
    const hook = await endpoint(() => ({ status: 204 }));
    await emit(h, 'realm_user.updated', realm.uid);
    const off = await h.request({ method: 'PUT', url: `/api/admin/webhooks/${hook.id}`, payload: { active: false } });
    expect(off.statusCode, off.body).toBe(200);
    const worker = webhookWorker(h.ctx, SECOND, 1);
    try {
      expect(await worker.nextDue()).toBeNull();
      await h.request({ method: 'PUT', url: `/api/admin/webhooks/${hook.id}`, payload: { active: true } });
      expect(await worker.nextDue()).toEqual(h.clock.now());
    } finally {
      worker.close();
    }
    const planOf = (statement: ReturnType<typeof sql>) => h.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return rowsOf<{ 'QUERY PLAN': string }>(await tx.execute(sql`explain ${statement}`)).map((line) => line['QUERY PLAN']).join('\n');
    });
    expect(await planOf(claimStatement(h.clock.now(), h.clock.now()))).toMatch(/webhook_deliveries_endpoint_due_idx[^\n]*\n\s*Index Cond: \(\(endpoint_id = e2\.id\)/);
    const nextDue = await planOf(nextDueStatement);
    expect(nextDue).toMatch(/webhook_deliveries_endpoint_due_idx[^\n]*\n\s*Index Cond: \(endpoint_id = e\.id\)/);
    expect(nextDue).toMatch(/webhook_deliveries_leased_idx/);
    await drainWebhooks(h.ctx);
    expect(receiver.received).toHaveLength(1);
  });

  it('lists deliveries newest first, a page at a time', async () => {
    const hook = await endpoint(() => ({ status: 204 }));
    for (let i = 0; i < 3; i++) await emit(h, 'realm_user.updated', realm.uid, { n: i });
    const page = await h.request({ method: 'GET', url: `/api/admin/webhooks/${hook.id}/deliveries?per_page=2` });
    expect(page.json().meta).toMatchObject({ total_entries: 3, total_pages: 2 });
    const [first, second] = page.json().deliveries;
    expect(first.id).toBeGreaterThan(second.id);
    expect(first).toMatchObject({ status: 'pending', attempts: [], attempts_count: 0, next_attempt_at: h.clock.now().toISOString() });
    const failedOnly = await h.request({ method: 'GET', url: `/api/admin/webhooks/${hook.id}/deliveries?status=failed` });
    expect(failedOnly.json().deliveries).toEqual([]);
    expect((await h.request({ method: 'GET', url: '/api/admin/webhooks/999999/deliveries' })).statusCode).toBe(404);
  });

  it('keeps an ended delivery 30 days with its attempts, a pending one until it ends', async () => {
    const hook = await endpoint(() => ({ status: 204 }));
    await emit(h, 'realm_user.updated', realm.uid, { n: 'sent' });
    await drainWebhooks(h.ctx);
    const sent = receiver.received.length;
    expect(sent).toBe(1);
    h.clock.advance(29 * DAY);
    await emit(h, 'realm_user.updated', other.uid, { n: 'waiting' });
    await h.request({ method: 'PUT', url: `/api/admin/webhooks/${hook.id}`, payload: { active: false } });
    const listed = async () => (await h.request({ method: 'GET', url: `/api/admin/webhooks/${hook.id}/deliveries` })).json().deliveries.map((d: { status: string }) => d.status);
    await runDueJobs(h.ctx, [expiredRowsJob]);
    expect(await listed()).toEqual(['pending', 'succeeded']);
    h.clock.advance(2 * DAY);
    expect(await runDueJobs(h.ctx, [expiredRowsJob])).toEqual(['expired-rows']);
    expect(await listed()).toEqual(['pending']);
  });
});

describe('webhook targets in private ranges (WEBHOOKS_ALLOW_PRIVATE off)', () => {
  let strict: Harness;
  beforeAll(async () => { strict = await startHarness(); });
  afterAll(async () => { await strict?.close(); });

  it('refuses at send time a name that resolves to a loopback address: outcome refused, nothing reaches the receiver', async () => {
    receiver = await startReceiver(strict.clock);
    const port = new URL(receiver.url).port;
    const res = await strict.request({ method: 'POST', url: '/api/admin/webhooks', payload: { url: `http://localhost:${port}/hook`, event_types: ['delivery.completed'] } });
    expect(res.statusCode, res.body).toBe(201);
    expect((await strict.request({ method: 'POST', url: '/api/admin/webhooks', payload: { url: `http://127.0.0.1:${port}/hook`, event_types: ['delivery.completed'] } })).statusCode).toBe(422);
    const refusedBefore = (await counters.webhookAttempts.get()).values.find((v) => v.labels.outcome === 'refused')?.value ?? 0;
    await emit(strict, 'delivery.completed', null);
    await drainWebhooks(strict.ctx);
    expect(receiver.received).toHaveLength(0);
    const refusedAfter = (await counters.webhookAttempts.get()).values.find((v) => v.labels.outcome === 'refused')?.value;
    expect(refusedAfter).toBe(refusedBefore + 1);
    const [delivery] = (await strict.request({ method: 'GET', url: `/api/admin/webhooks/${res.json().id}/deliveries` })).json().deliveries;
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ outcome: 'refused', status_code: null });
    expect(delivery.attempts[0].error).toMatch(/localhost resolves to .*loopback/);
  });
});
