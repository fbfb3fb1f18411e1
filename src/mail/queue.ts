import type { Context } from '../context.js';
import { enqueue, PermanentFailure, tripledBackoff, type TaskQueue } from '../queue/tasks.js';
import { secretsKey } from '../security/secrets-key.js';
import { seal, unseal } from '../security/sealed.js';
import type { Mail } from './mail.js';
import { newMessageId } from './mime.js';

/** A queued mail: the whole mail (or what its template needs) sealed with SECRETS_KEY, for it carries codes and links. */
interface QueuedMail {
  sealed: string;
}

/** A mail written from its template when it is sent: the kind, whose template (a realm's, or the account's), the language and the values. */
export interface TemplatedMail {
  to: string;
  kind: string;
  realmId: number | null;
  locale: string;
  variables: Record<string, unknown>;
}

/** Writes a templated mail; given by the feature that owns templates (its module's `mailRenderer`), read from the context. */
export type MailRenderer = (ctx: Context, mail: TemplatedMail) => Promise<Mail>;

type Sealed = Mail | { template: TemplatedMail; messageId: string };

const SEALED_FOR = 'queue_tasks:mail';

/**
 * The mails Atrium writes by itself (one-time codes, reset, activation, invitation and email change
 * links): queued with the code or link they carry, then sent by whichever process claims them, and
 * tried again while the mail server is away (5 s, 15 s, 45 s ... up to an hour apart, 8 times). A
 * 5xx answer fails a mail at once. A mail sent by a process that dies before recording it is sent
 * again with the same Message-ID, which receiving servers use to drop the copy.
 */
export const mailQueue: TaskQueue<QueuedMail> = {
  name: 'mail',
  leaseMs: 120_000,
  maxAttempts: 8,
  backoffMs: tripledBackoff(5_000),
  async run(ctx, payload) {
    const queued = JSON.parse(unseal(secretsKey(ctx.config), payload.sealed, SEALED_FOR)) as Sealed;
    if (!('template' in queued)) return deliverMail(ctx, queued);
    if (!ctx.renderMail) throw new PermanentFailure('no module renders templated mail');
    await deliverMail(ctx, { ...await ctx.renderMail(ctx, queued.template), messageId: queued.messageId });
  },
};

/** Sends a queued mail: a 5xx answer fails it at once, anything else is tried again. */
async function deliverMail(ctx: Context, mail: Mail): Promise<void> {
  try {
    await ctx.mail.send(mail);
  } catch (err) {
    const code = (err as { responseCode?: unknown }).responseCode;
    if (typeof code === 'number' && code >= 500) throw new PermanentFailure((err as Error).message);
    throw err;
  }
}

/**
 * Queues a mail in the transaction `ctx.db` is. With `insert: false` nothing is written, in the same
 * time: for an answer that must not tell whether the address has an account.
 */
export async function queueMail(ctx: Context, mail: Mail, insert = true): Promise<void> {
  await queueSealed(ctx, { ...mail, messageId: mail.messageId ?? newMessageId(ctx.config.mailFrom) }, insert);
}

/** Queues a mail to be written from its template when it is sent (by `ctx.renderMail`), as queueMail does. */
export async function queueTemplatedMail(ctx: Context, template: TemplatedMail, insert = true): Promise<void> {
  await queueSealed(ctx, { template, messageId: newMessageId(ctx.config.mailFrom) }, insert);
}

async function queueSealed(ctx: Context, queued: Sealed, insert: boolean): Promise<void> {
  await enqueue(ctx.db, ctx.clock, mailQueue, { sealed: seal(secretsKey(ctx.config), JSON.stringify(queued), SEALED_FOR) }, insert);
}
