import { and, eq, sql, type SQLWrapper } from 'drizzle-orm';
import type { Context } from '../context.js';
import { rowsOf } from '../db/rows.js';
import { counters } from '../metrics/counters.js';
import { emitWebhookEvent } from '../webhooks/outbox.js';
import { deliveryCompletedEvent, withRealmAndCampaign } from './deliveries.js';
import { campaignDeliveries } from '../tables/messaging.js';
import { createPersonalNotifications } from '../notifications/notifications.js';
import { recipientCondition } from './audience.js';
import { bodyKindOf } from './campaigns.js';
import type { CampaignLayout } from './layout.js';
import { composeMailing } from './mailing.js';
import { RECIPIENT_COLUMNS, recipientOf, templateScope, type RecipientRow } from './recipients.js';
import { checkTemplates, renderTemplate, TEMPLATE_LIMITS, TemplateError, type CampaignTemplates } from './templates.js';
import { sqlMoment } from '../db/columns.js';
import { SourceCache } from '../shared/source-cache.js';

/** Users written as message rows per transaction when a delivery starts. */
const RECIPIENT_BATCH = 1000;
/** Sending attempts of one message before it is recorded as failed. */
const MAX_ATTEMPTS = 4;
/** Wait before the next attempt: 30 s, 2 min, 8 min. */
const backoffMs = (attempts: number) => 30_000 * 4 ** (attempts - 1);


/** Scheduled deliveries whose time has come start; the same conditional UPDATE a cancel races with decides. */
async function startDue(ctx: Context): Promise<number> {
  const started = rowsOf(await ctx.db.execute(sql`update campaign_deliveries set status = 'sending'
    where status = 'scheduled' and starts_at <= ${sqlMoment(ctx.clock.now())} returning id`));
  return started.length;
}

interface Populating {
  id: number;
  campaign_id: number;
  realm_id: number;
  segment_ids: number[] | null;
  recipients_cursor: number;
}

/**
 * Writes the next batch of one starting delivery's recipients (by a cursor over user ids), moving the
 * cursor in the same transaction: a crash repeats nothing and skips no one. The last batch fixes `reach`.
 */
async function writeRecipients(ctx: Context): Promise<number> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [delivery] = rowsOf<Populating>(await tx.execute(sql`select id, campaign_id, realm_id, segment_ids, recipients_cursor
      from campaign_deliveries where status = 'sending' and not recipients_done order by id limit 1 for update skip locked`));
    if (!delivery) return 0;
    const audience = await recipientCondition({ ...ctx, db: tx }, delivery.realm_id, delivery.segment_ids);
    const [batch] = rowsOf<{ n: number; last: number | null }>(await tx.execute(sql`
      with batch as (
        select realm_users.id from realm_users where ${audience} and realm_users.id > ${delivery.recipients_cursor}
        order by realm_users.id limit ${RECIPIENT_BATCH}
      ), written as (
        insert into message_deliveries (delivery_id, campaign_id, user_id, next_attempt_at)
        select ${delivery.id}, ${delivery.campaign_id}, id, ${sqlMoment(now)} from batch on conflict do nothing
      )
      select count(*)::int as n, max(id) as last from batch`));
    const done = batch.n < RECIPIENT_BATCH;
    await tx.execute(sql`update campaign_deliveries set recipients_cursor = ${batch.last ?? delivery.recipients_cursor},
      recipients_done = ${done},
      reach = case when ${done} then (select count(*) from message_deliveries where delivery_id = ${delivery.id}) else reach end
      where id = ${delivery.id}`);
    return batch.n + 1;
  });
}

/**
 * A message whose worker's lease ended without a report may or may not have left: it is marked
 * in doubt and counted on its delivery, never sent again on its own.
 */
async function markInDoubt(ctx: Context): Promise<number> {
  const rows = rowsOf<{ n: number }>(await ctx.db.execute(sql`
    with lapsed as (
      update message_deliveries set status = 'in_doubt', lease_until = null
      where status = 'sending' and lease_until < ${sqlMoment(ctx.clock.now())} returning delivery_id
    ), counted as (select delivery_id, count(*)::int as n from lapsed group by delivery_id)
    update campaign_deliveries d set in_doubt_count = d.in_doubt_count + counted.n from counted where d.id = counted.delivery_id
    returning counted.n`));
  const lapsed = rows.reduce((sum, r) => sum + r.n, 0);
  if (lapsed) counters.campaignMessages.inc({ result: 'in_doubt' }, lapsed);
  return lapsed;
}

/**
 * No message of the delivery is waiting or being sent: one test a status, each read from that status's partial index
 * (`status in (...)` matches neither index, and read all the delivery's messages, or the table, on every round).
 */
export const noMessageLeft = (deliveryId: SQLWrapper) => sql`not exists (select 1 from message_deliveries m where m.delivery_id = ${deliveryId} and m.status = 'pending')
  and not exists (select 1 from message_deliveries m where m.delivery_id = ${deliveryId} and m.status = 'sending')`;

/**
 * Deliveries with every recipient written and no message left to send end: completed, or failed when
 * nothing could be sent; each completed one puts `delivery.completed` in the webhook outbox with it.
 */
async function completeDeliveries(ctx: Context): Promise<number> {
  const d = campaignDeliveries;
  return ctx.db.transaction(async (tx) => {
    const ended = await tx.update(d).set({
      status: sql`case when ${d.sentCount} = 0 and ${d.inDoubtCount} = 0 and ${d.failedCount} > 0 then 'failed' else 'completed' end`,
      endsAt: ctx.clock.now(),
    }).where(and(eq(d.status, 'sending'), eq(d.recipientsDone, true),
      noMessageLeft(d.id)))
      .returning(withRealmAndCampaign);
    for (const { realmUid, campaignUuid, ...delivery } of ended) {
      if (delivery.status === 'completed') await emitWebhookEvent(ctx, tx, deliveryCompletedEvent(realmUid, campaignUuid, delivery));
    }
    return ended.length;
  });
}

export interface ClaimedDelivery {
  id: number;
  uuid: string;
  realm_id: number;
  type: string;
  subject: string;
  body: string;
  layout: CampaignLayout | string | null;
  rate_per_second: number | null;
}

interface ClaimedMessage extends RecipientRow {
  message_id: number;
  attempts: number;
}

/**
 * Takes up to a batch of one delivery's due messages, marking them `sending` with this worker and a
 * lease in the same statement (FOR UPDATE SKIP LOCKED: workers of every process share the rows). A
 * delivery with a rate gives out `rate` messages per second in all, whichever worker asks.
 */
async function claim(ctx: Context, worker: string): Promise<{ delivery: ClaimedDelivery; messages: ClaimedMessage[] } | null> {
  const now = ctx.clock.now();
  const lease = new Date(now.getTime() + ctx.config.sendingLeaseSeconds * 1000);
  return ctx.db.transaction(async (tx) => {
    const [delivery] = rowsOf<ClaimedDelivery>(await tx.execute(sql`select id, uuid, realm_id, type, subject, body, layout, rate_per_second
      from campaign_deliveries d where status = 'sending' and (next_claim_at is null or next_claim_at <= ${sqlMoment(now)})
        and exists (select 1 from message_deliveries m where m.delivery_id = d.id and m.status = 'pending' and m.next_attempt_at <= ${sqlMoment(now)})
      order by id limit 1`));
    if (!delivery) return null;
    let size = ctx.config.sendingBatchSize;
    if (delivery.rate_per_second) {
      size = Math.min(size, delivery.rate_per_second);
      const paced = rowsOf(await tx.execute(sql`update campaign_deliveries
        set next_claim_at = greatest(coalesce(next_claim_at, ${sqlMoment(now)}), ${sqlMoment(now)}) + ${size / delivery.rate_per_second} * interval '1 second'
        where id = ${delivery.id} and (next_claim_at is null or next_claim_at <= ${sqlMoment(now)}) returning id`));
      if (!paced.length) return null;
    }
    const messages = rowsOf<ClaimedMessage>(await tx.execute(sql`
      with due as (
        select id from message_deliveries where delivery_id = ${delivery.id} and status = 'pending' and next_attempt_at <= ${sqlMoment(now)}
        order by id limit ${size} for update skip locked
      ), taken as (
        update message_deliveries m set status = 'sending', worker = ${worker}, lease_until = ${sqlMoment(lease)}, attempts = m.attempts + 1
        from due where m.id = due.id returning m.id, m.user_id, m.attempts
      )
      select taken.id as message_id, taken.attempts, ${sql.raw(RECIPIENT_COLUMNS)}
      from taken join realm_users u on u.id = taken.user_id order by taken.id`));
    return messages.length ? { delivery, messages } : null;
  });
}

/** Parsed templates of the deliveries under way in this process (a delivery's copy never changes), by the delivery's uuid. */
const parsedTemplates = new SourceCache<CampaignTemplates>();

const templatesOf = (delivery: ClaimedDelivery): CampaignTemplates => parsedTemplates.get(
  delivery.uuid,
  () => checkTemplates(delivery.subject, delivery.body, bodyKindOf(delivery.type)),
  delivery.subject.length + delivery.body.length,
);

interface Outcome {
  id: number;
  attempts: number;
  /** Null when sent. */
  error: string | null;
  /** Whether trying again could help (a connection failure or a 4xx answer of the mail server, not a template error or a 5xx). */
  transient: boolean;
}

function failureOf(err: unknown): { error: string; transient: boolean } {
  if (err instanceof TemplateError) return { error: `the template cannot be rendered: ${err.message}`, transient: false };
  const smtp = err as { responseCode?: number; response?: string; message?: string };
  if (typeof smtp.responseCode === 'number') return { error: `${smtp.response ?? smtp.message}`.slice(0, 500), transient: smtp.responseCode < 500 };
  return { error: String(smtp.message ?? err).slice(0, 500), transient: true };
}

async function sendMailings(ctx: Context, worker: string, delivery: ClaimedDelivery, messages: ClaimedMessage[]): Promise<Outcome[]> {
  const templates = templatesOf(delivery);
  const layout = typeof delivery.layout === 'string' ? JSON.parse(delivery.layout) as CampaignLayout : delivery.layout;
  const sent = sentRecorder(ctx, worker, delivery.id);
  const outcomes = await Promise.all(messages.map(async (m): Promise<Outcome> => {
    try {
      const mail = composeMailing(ctx.config, templates, layout, { messageId: m.message_id, deliveryUuid: delivery.uuid, recipient: recipientOf(m) });
      await ctx.mail.send(mail);
      sent.add(m.message_id);
      return { id: m.message_id, attempts: m.attempts, error: null, transient: false };
    } catch (err) {
      return { id: m.message_id, attempts: m.attempts, ...failureOf(err) };
    }
  }));
  await sent.done();
  return outcomes;
}

/**
 * Records sent messages while the rest of their batch is still under way: each send that ends joins
 * the next UPDATE (one at a time, so they group under load), and a process that dies leaves in doubt
 * only the messages not yet recorded.
 */
function sentRecorder(ctx: Context, worker: string, deliveryId: number) {
  let waiting: number[] = [];
  let flushing: Promise<void> = Promise.resolve();
  const flush = async () => {
    while (waiting.length) {
      const ids = waiting;
      waiting = [];
      await recordSent(ctx, worker, deliveryId, ids);
    }
  };
  return {
    add(id: number) {
      waiting.push(id);
      if (waiting.length === 1) flushing = flushing.then(flush);
    },
    done: () => flushing.then(flush),
  };
}

/** Records the sent messages and counts them on the delivery, for the rows this worker still holds. */
async function recordSent(ctx: Context, worker: string, deliveryId: number, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const [recorded] = rowsOf<{ n: number }>(await ctx.db.execute(sql`with sent as (
      update message_deliveries set status = 'sent', sent_at = ${sqlMoment(ctx.clock.now())}, lease_until = null, failure_reason = null
      where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) and status = 'sending' and worker = ${worker} returning id
    )
    update campaign_deliveries set sent_count = sent_count + (select count(*) from sent) where id = ${deliveryId}
    returning (select count(*)::int from sent) as n`));
  if (recorded?.n) counters.campaignMessages.inc({ result: 'sent' }, recorded.n);
}

/** A failure is tried again later with backoff; after the last attempt, or when retrying cannot help, the message is failed with the reason. */
async function recordFailures(ctx: Context, worker: string, deliveryId: number, failures: Outcome[]): Promise<void> {
  const now = ctx.clock.now();
  for (const f of failures) {
    const final = !f.transient || f.attempts >= MAX_ATTEMPTS;
    if (final) {
      const [recorded] = rowsOf<{ n: number }>(await ctx.db.execute(sql`with failed as (
          update message_deliveries set status = 'failed', failure_reason = ${f.error}, lease_until = null
          where id = ${f.id} and status = 'sending' and worker = ${worker} returning id
        )
        update campaign_deliveries set failed_count = failed_count + (select count(*) from failed) where id = ${deliveryId}
        returning (select count(*)::int from failed) as n`));
      if (recorded?.n) counters.campaignMessages.inc({ result: 'failed' }, recorded.n);
    } else {
      await ctx.db.execute(sql`update message_deliveries set status = 'pending', failure_reason = ${f.error}, lease_until = null,
        next_attempt_at = ${sqlMoment(new Date(now.getTime() + backoffMs(f.attempts)))}
        where id = ${f.id} and status = 'sending' and worker = ${worker}`);
    }
  }
}

/**
 * A notification campaign's batch: each user's notification is written, and its message marked sent,
 * in one transaction, so a notification is never made twice nor left unrecorded.
 */
async function sendNotifications(ctx: Context, worker: string, delivery: ClaimedDelivery, messages: ClaimedMessage[]): Promise<void> {
  const templates = templatesOf(delivery);
  const rendered: { message: ClaimedMessage; subject: string; body: string }[] = [];
  const failures: Outcome[] = [];
  for (const m of messages) {
    try {
      const scope = templateScope(recipientOf(m));
      const limit = TEMPLATE_LIMITS.sendingRenderMs;
      const subject = renderTemplate(templates.subject, 'text', scope, limit).replace(/[\r\n]+/g, ' ').trim().slice(0, 255) || '(no subject)';
      rendered.push({ message: m, subject, body: renderTemplate(templates.body, 'text', scope, limit).slice(0, 10_000) });
    } catch (err) {
      failures.push({ id: m.message_id, attempts: m.attempts, ...failureOf(err) });
    }
  }
  const now = ctx.clock.now();
  const sent = await ctx.db.transaction(async (tx) => {
    const held = new Set(rowsOf<{ id: number }>(await tx.execute(sql`select id from message_deliveries
      where delivery_id = ${delivery.id} and status = 'sending' and worker = ${worker} for update`)).map((r) => r.id));
    const mine = rendered.filter((r) => held.has(r.message.message_id));
    const made = await createPersonalNotifications(tx, delivery.realm_id, mine.map((r) => ({ userId: r.message.id, subject: r.subject, body: r.body })), now);
    const byUser = new Map(made.map((n) => [n.userId, n.id]));
    for (const r of mine) {
      const notificationId = byUser.get(r.message.id);
      if (notificationId === undefined) continue;
      await tx.execute(sql`update message_deliveries set status = 'sent', sent_at = ${sqlMoment(now)}, lease_until = null, notification_id = ${notificationId}
        where id = ${r.message.message_id}`);
    }
    await tx.execute(sql`update campaign_deliveries set sent_count = sent_count + ${made.length} where id = ${delivery.id}`);
    return made.length;
  });
  if (sent) counters.campaignMessages.inc({ result: 'sent' }, sent);
  await recordFailures(ctx, worker, delivery.id, failures);
}

/** Claims one batch and sends it; answers how many messages it took (0: nothing was due). */
async function sendBatch(ctx: Context, worker: string): Promise<number> {
  const claimed = await claim(ctx, worker);
  if (!claimed) return 0;
  const { delivery, messages } = claimed;
  if (delivery.type === 'notification') {
    await sendNotifications(ctx, worker, delivery, messages);
  } else {
    const outcomes = await sendMailings(ctx, worker, delivery, messages);
    await recordFailures(ctx, worker, delivery.id, outcomes.filter((o) => o.error !== null));
  }
  return messages.length;
}

/**
 * One round of the sender, in any process: start due deliveries, write a batch of recipients, mark
 * lapsed leases in doubt, send one batch, end finished deliveries. Answers how much it did (0: idle).
 */
export async function sendingRound(ctx: Context, worker: string): Promise<number> {
  let work = await startDue(ctx);
  work += await writeRecipients(ctx);
  work += await markInDoubt(ctx);
  work += await sendBatch(ctx, worker);
  work += await completeDeliveries(ctx);
  return work;
}
