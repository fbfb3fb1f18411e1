import { sql } from 'drizzle-orm';
import type { Context } from '../context.js';
import { rowsOf } from '../db/rows.js';
import { counters } from '../metrics/counters.js';
import { keyOf, signatureHeader, unsealSecret } from './signing.js';
import { endpointsChanged } from './subscribers.js';
import type { PostResult, WebhookTransport } from './transport.js';
import { sqlMoment } from '../db/columns.js';

/** Waits after the 1st, 2nd, ... failed attempt; after the last one fails too, the delivery is `failed`. */
export const RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
/** An endpoint all of whose attempts have failed for this long is turned off. */
export const FAILING_LIMIT_MS = 5 * 86_400_000;
/** Deliveries one round takes and sends at once. */
const BATCH = 50;
/** How long a claimed delivery is this sender's: well past the 15 s timeout, so only a dead sender's rows are taken over. */
const LEASE_MS = 60_000;

const idList = (ids: number[]) => sql.join(ids.map((id) => sql`${id}`), sql`, `);

interface Claimed {
  id: number;
  msg_id: string;
  body: string;
  attempts: number;
  endpoint_id: number;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_until: string | Date | null;
}

/**
 * The statement of `claim`: the oldest due rows of each active endpoint, read from that endpoint's part of the index
 * (rows of an endpoint that is off are never read), then the oldest of those in all.
 */
export const claimStatement = (now: Date, lease: Date) => sql`
    update webhook_deliveries d set lease_until = ${sqlMoment(lease)}
    from webhook_endpoints e
    where e.id = d.endpoint_id and d.id in (
      select due.id from webhook_endpoints e2 cross join lateral (
        select d2.id, d2.next_attempt_at from webhook_deliveries d2
        where d2.endpoint_id = e2.id and d2.status = 'pending' and d2.next_attempt_at <= ${sqlMoment(now)}
          and (d2.lease_until is null or d2.lease_until <= ${sqlMoment(now)})
        order by d2.next_attempt_at, d2.id limit ${BATCH}
        for update of d2 skip locked) due
      where e2.active
      order by due.next_attempt_at, due.id limit ${BATCH})
    returning d.id, d.msg_id, d.body, d.attempts, d.endpoint_id, e.url, e.secret_sealed, e.previous_secret_sealed, e.previous_secret_until`;

/**
 * Takes due deliveries of active endpoints, marking them with a lease in the same statement
 * (FOR UPDATE SKIP LOCKED: the senders of every process share the rows, and none takes one another
 * holds). A row whose lease ran out without a report (its sender died) is due again.
 */
async function claim(ctx: Context, now: Date, lease: Date): Promise<Claimed[]> {
  return rowsOf<Claimed>(await ctx.db.execute(claimStatement(now, lease)));
}

/** The keys that sign for an endpoint now: its secret, and the previous one during the day after a rotation. */
function keysOf(ctx: Context, row: Claimed, now: Date): Buffer[] {
  const keys = [keyOf(unsealSecret(ctx.config, row.endpoint_id, row.secret_sealed))];
  if (row.previous_secret_sealed && row.previous_secret_until && new Date(row.previous_secret_until) > now) {
    keys.push(keyOf(unsealSecret(ctx.config, row.endpoint_id, row.previous_secret_sealed)));
  }
  return keys;
}

interface Report {
  id: number;
  endpoint_id: number;
  status: 'pending' | 'succeeded' | 'failed';
  next_at: string | null;
  at: string;
  outcome: PostResult['outcome'];
  code: number | null;
  duration: number;
  error: string | null;
  response: string | null;
}

function reportOf(row: Claimed, result: PostResult, now: Date): Report {
  const attempts = row.attempts + 1;
  const wait = RETRY_SCHEDULE_MS[attempts - 1];
  const status = result.outcome === 'succeeded' ? 'succeeded' : wait === undefined ? 'failed' : 'pending';
  return {
    id: row.id, endpoint_id: row.endpoint_id, status,
    next_at: status === 'pending' ? new Date(now.getTime() + wait).toISOString() : null,
    at: now.toISOString(), outcome: result.outcome, code: result.statusCode, duration: result.durationMs, error: result.error, response: result.response,
  };
}

/**
 * Writes a round's attempts and the deliveries' new state in one transaction. A delivery whose lease
 * changed meanwhile (a resend asked for, or a takeover after a very slow answer) keeps the newer state.
 */
async function record(ctx: Context, reports: Report[], lease: Date, now: Date): Promise<void> {
  const json = JSON.stringify(reports);
  const rows = sql`jsonb_to_recordset(${json}::jsonb) as r(id bigint, endpoint_id integer, status text, next_at timestamptz, at timestamptz,
    outcome text, code integer, duration integer, error text, response text)`;
  const succeeded = [...new Set(reports.filter((r) => r.outcome === 'succeeded').map((r) => r.endpoint_id))];
  const failed = [...new Set(reports.filter((r) => r.outcome !== 'succeeded' && !succeeded.includes(r.endpoint_id)).map((r) => r.endpoint_id))];
  const gone = [...new Set(reports.filter((r) => r.code === 410).map((r) => r.endpoint_id))];
  const disabled = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`
      with updated as (
        update webhook_deliveries d set status = r.status, attempts = d.attempts + 1, next_attempt_at = r.next_at, lease_until = null,
          last_attempt_at = r.at, last_status_code = r.code
        from ${rows} where d.id = r.id and d.lease_until = ${sqlMoment(lease)}
      )
      insert into webhook_attempts (delivery_id, attempted_at, outcome, status_code, duration_ms, error, response)
      select r.id, r.at, r.outcome, r.code, r.duration, r.error, r.response from ${rows}
      where exists (select 1 from webhook_deliveries d where d.id = r.id)`);
    if (succeeded.length) {
      await tx.execute(sql`update webhook_endpoints set failing_since = null where id in (${idList(succeeded)}) and failing_since is not null`);
    }
    const off: { id: number }[] = [];
    if (failed.length) {
      await tx.execute(sql`update webhook_endpoints set failing_since = ${sqlMoment(now)} where id in (${idList(failed)}) and failing_since is null`);
      off.push(...rowsOf<{ id: number }>(await tx.execute(sql`update webhook_endpoints
        set active = false, disabled_at = ${sqlMoment(now)},
          disabled_reason = 'Every attempt failed for five days (since ' || to_char(failing_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '): turned off by the server'
        where id in (${idList(failed)}) and active and failing_since <= ${sqlMoment(new Date(now.getTime() - FAILING_LIMIT_MS))} returning id`)));
    }
    if (gone.length) {
      off.push(...rowsOf<{ id: number }>(await tx.execute(sql`update webhook_endpoints
        set active = false, disabled_at = ${sqlMoment(now)}, disabled_reason = 'The endpoint answered 410 Gone: turned off by the server'
        where id in (${idList(gone)}) and active returning id`)));
    }
    return off.length;
  });
  if (disabled) endpointsChanged(ctx);
}

/**
 * One round: claims due deliveries, POSTs each (signed at the attempt's time, the same body and
 * webhook-id every time) at once, then records the outcomes. Answers how many it took.
 */
export async function webhookRound(ctx: Context, transport: WebhookTransport): Promise<number> {
  const now = ctx.clock.now();
  const lease = new Date(now.getTime() + LEASE_MS);
  const claimed = await claim(ctx, now, lease);
  if (!claimed.length) return 0;
  const timestamp = Math.floor(now.getTime() / 1000);
  const keys = new Map<number, Buffer[]>();
  const reports = await Promise.all(claimed.map(async (row) => {
    let signing = keys.get(row.endpoint_id);
    try {
      if (!signing) keys.set(row.endpoint_id, signing = keysOf(ctx, row, now));
    } catch {
      return reportOf(row, { outcome: 'error', statusCode: null, durationMs: 0, error: 'The secret cannot be opened: was SECRETS_KEY changed?', response: null }, now);
    }
    const result = await transport.post(row.url, {
      'webhook-id': row.msg_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(signing, row.msg_id, timestamp, row.body),
    }, row.body);
    counters.webhookAttempts.inc({ outcome: result.outcome });
    // Attempts are dated at their start, on the injected clock: the schedule is reckoned from there.
    return reportOf(row, result, now);
  }));
  await record(ctx, reports, lease, now);
  return claimed.length;
}
