import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import { beginAttempt, type AttemptLimit } from '../attempts/limit.js';
import { inTransaction, type Context } from '../context.js';
import { formClosed, formFull, formRateLimited, notFound } from '../errors/index.js';
import { recordEvent } from '../events/events.js';
import { queueTemplatedMail } from '../email-templates/queue.js';
import type { Db } from '../db/connect.js';
import { prepared } from '../db/prepared.js';
import { foreignKeyViolation } from '../db/unique.js';
import { isLocale } from '../i18n/locale.js';
import { removeObjects } from '../storage/storage.js';
import { formResponses, forms, formTokenUses, type FormResponseRow, type StoredFile } from '../tables/forms.js';
import { emitWebhookEvent } from '../webhooks/outbox.js';
import { subscribedTypes } from '../webhooks/subscribers.js';
import { checkAnswers, labelOf, respondentEmail } from './answers.js';
import type { FormWithRealm } from './forms.js';
import { formTexts } from './texts.js';
import { readFormToken, TOKEN_LIFETIME_MS } from './tokens.js';

/** What any of the three doors hands to `submitResponse`. */
export interface Submission {
  values: Record<string, unknown>;
  /** JSON doors refuse unknown names and cannot carry a file. */
  strict: boolean;
  file?: { field: string; stored: StoredFile };
  token: string | undefined;
  honeypot: unknown;
  /** The client's address, the rate limit's subject. */
  ip: string;
  /** The signed-in realm user answering, when there is one. */
  user: { id: number; email: string | null; realmId: number; realmName: string } | null;
  locale: string;
}

/** What every response gets, caught or not: no id, nothing that tells the two apart. */
export interface AcceptedBody {
  status: 'received';
  message: string;
  redirect_url: string | null;
}

const FORM_RESPONSE_CREATED = 'form.response.created';

const rateLimit = (perHour: number): AttemptLimit => ({ scope: 'form_responses', max: perHour, windowMs: 3600_000 });

interface SpamJudgement {
  /** Caught before the token's nonce is looked at: the honeypot, or a token not ours (or expired). */
  before: string | null;
  /** The nonce to record: a second use of it is a replay. */
  nonce: string | null;
  /** Caught after: sent too fast. */
  after: string | null;
}

/** Why a response is spam, in the order the reasons count: honeypot, a bad token, a replayed one (decided at insert), too fast. */
function judge(ctx: Context, row: FormWithRealm, submission: Submission): SpamJudgement {
  const { form } = row;
  const token = readFormToken(ctx, submission.token, form.id, submission.user?.id ?? null);
  const now = ctx.clock.now().getTime();
  const nonce = token?.nonce ?? null;
  if (typeof submission.honeypot === 'string' ? submission.honeypot !== '' : submission.honeypot != null) return { before: 'honeypot', nonce, after: null };
  if (!token || now - token.issuedAt > TOKEN_LIFETIME_MS || token.issuedAt > now + 60_000) return { before: 'bad_token', nonce, after: null };
  return { before: null, nonce, after: now - token.issuedAt < form.minFillSeconds * 1000 ? 'too_fast' : null };
}

type ResponseValues = Omit<typeof formResponses.$inferInsert, 'status' | 'spamReason'>;

/**
 * The response, and its token's nonce recorded, in one statement: a nonce already recorded makes it
 * spam (`replayed_token`) unless an earlier reason already did. Prepared: PostgreSQL plans it once per
 * connection, which is most of what a small write costs it.
 */
const insertStatement = (db: Db, withNonce: boolean) => prepared(db, withNonce ? 'form_response_insert_nonce' : 'form_response_insert', (d, name) => {
  const param = (key: string, type: string) => sql`${sql.placeholder(key)}::${sql.raw(type)}`;
  const values = {
    formId: param('formId', 'integer'), answers: param('answers', 'jsonb'), files: param('files', 'jsonb'), email: param('email', 'text'),
    userId: param('userId', 'integer'), locale: param('locale', 'text'), submittedAt: param('submittedAt', 'timestamptz'),
  };
  const row = (reason: SQL) => ({ ...values, status: sql`case when ${reason} is null then 'received' else 'spam' end`, spamReason: reason });
  if (!withNonce) return d.insert(formResponses).values(row(sql`coalesce(${param('before', 'text')}, ${param('after', 'text')})`)).returning().prepare(name);
  const used = d.$with('used').as(d.insert(formTokenUses).values({ nonce: param('nonce', 'text'), formId: param('formId', 'integer'), usedAt: param('submittedAt', 'timestamptz') })
    .onConflictDoNothing().returning({ nonce: formTokenUses.nonce }));
  const reason = sql`coalesce(${param('before', 'text')}, case when not exists (select 1 from ${used}) then 'replayed_token' end, ${param('after', 'text')})`;
  return d.with(used).insert(formResponses).values(row(reason)).returning().prepare(name);
});

async function insertResponse(ctx: Context, values: ResponseValues, judgement: SpamJudgement): Promise<FormResponseRow> {
  const [response] = await insertStatement(ctx.db, judgement.nonce !== null).execute({
    formId: values.formId, answers: JSON.stringify(values.answers), files: JSON.stringify(values.files ?? {}), email: values.email ?? null,
    userId: values.userId ?? null, locale: values.locale, submittedAt: values.submittedAt.toISOString(),
    before: judgement.before, after: judgement.after, nonce: judgement.nonce,
  });
  return response as FormResponseRow;
}

/** The count of the responses the form has accepted (spam not counted), read from their own index. */
export const acceptedResponses = (db: Db, formId: number) => db.select({ n: count() }).from(formResponses)
  .where(and(eq(formResponses.formId, formId), eq(formResponses.status, 'received')));

async function acceptedCount(ctx: Context, formId: number): Promise<number> {
  const [row] = await acceptedResponses(ctx.db, formId);
  return row.n;
}

/** Refuses a form that does not take responses now: inactive, not yet open, past its close, or full. */
export async function assertOpen(ctx: Context, { form }: FormWithRealm, locale: string): Promise<void> {
  const t = formTexts(locale);
  const now = ctx.clock.now();
  if (!form.active) throw formClosed(t.closed);
  if (form.opensAt && form.opensAt > now) throw formClosed(t.notYet(form.opensAt.toISOString()));
  if (form.closesAt && form.closesAt <= now) throw formClosed(t.ended);
  if (form.maxResponses !== null && await acceptedCount(ctx, form.id) >= form.maxResponses) throw formFull();
}

/** The variables of the email-templates kinds `form_notification` and `form_confirmation`. */
export interface FormMailVariables {
  form: { name: string; uid: string };
  response: { id: number; submitted_at: string; email: string | null; answers: { label: string; value: string }[] };
  realm: { uid: string; name: string } | null;
}

/** The variables of the response's mails, with answers as text in `locale`. */
export function mailVariables(row: FormWithRealm, response: FormResponseRow, locale: string, realmName: string | null): FormMailVariables {
  const { form } = row;
  const t = formTexts(locale);
  const text = (value: unknown): string => (value === true ? t.yes : value === false ? t.no : Array.isArray(value) ? value.join(', ')
    : value && typeof value === 'object' ? String((value as { name?: unknown }).name ?? '') : String(value));
  return {
    form: { name: form.name, uid: form.uid },
    response: {
      id: response.id, submitted_at: response.submittedAt.toISOString(), email: response.email,
      answers: form.fields.filter((f) => Object.hasOwn(response.answers, f.name))
        .map((f) => ({ label: labelOf(f.labels, locale, form.defaultLocale), value: text(response.answers[f.name]) })),
    },
    realm: row.realmUid && realmName !== null ? { uid: row.realmUid, name: realmName } : null,
  };
}

/**
 * What a real response sets off, in its transaction: the admins' notification mails, the respondent's
 * confirmation (`confirm`), the webhook event and, for a signed-in user, the business event.
 */
export async function announceResponse(ctx: Context, row: FormWithRealm, response: FormResponseRow, realmName: string | null, confirm: boolean): Promise<void> {
  const { form } = row;
  const mail = (to: string, kind: 'form_notification' | 'form_confirmation', locale: string) => queueTemplatedMail(ctx, {
    to, kind, realmId: form.realmId, locale: isLocale(locale) ? locale : 'en', variables: { ...mailVariables(row, response, locale, realmName) },
  });
  for (const to of form.notifyEmails) await mail(to, 'form_notification', form.defaultLocale);
  if (confirm && form.confirmation && response.email) await mail(response.email, 'form_confirmation', response.locale);
  const variables = mailVariables(row, response, form.defaultLocale, realmName);
  await emitWebhookEvent(ctx, ctx.db, {
    type: FORM_RESPONSE_CREATED, realmUid: row.realmUid,
    data: { form: variables.form, response: { ...variables.response, status: response.status, user_id: response.userId, answers: response.answers } },
  });
  if (response.userId !== null && form.realmId !== null) {
    await recordEvent(ctx, { realmId: form.realmId, userId: response.userId, type: 'form_response_created_log', properties: { form_uid: form.uid, response_id: response.id } });
  }
}

/** Whether a real response would set anything off (announceResponse): a mail, a webhook event, a business event. */
async function setsOff(ctx: Context, { form }: FormWithRealm, email: string | null, submission: Submission): Promise<boolean> {
  return form.notifyEmails.length > 0 || (form.confirmation && email !== null) || (submission.user !== null && form.realmId !== null)
    || (await subscribedTypes(ctx.db, ctx.clock, ctx.caches)).has(FORM_RESPONSE_CREATED);
}

/**
 * The one operation every door calls (hosted page, content catalog, customers API): the per-address
 * limit (taken first, by every submission, caught ones too), the form's dates and fill, the answers'
 * checks (422), then in one transaction the spam judgement, the count under `max_responses` (its row locked), the
 * stored response and what it sets off. A caught response is stored as spam and answered like a real one.
 */
export async function submitResponse(ctx: Context, row: FormWithRealm, submission: Submission): Promise<AcceptedBody> {
  const { form } = row;
  try {
    if (form.access === 'realm_users' && submission.user?.realmId !== form.realmId) throw notFound('Form');
    if (form.rateLimitPerHour > 0) {
      const attempt = await beginAttempt(ctx, rateLimit(form.rateLimitPerHour), `${form.id}:${submission.ip}`);
      if (!attempt.allowed) throw formRateLimited(attempt.lockedUntil);
    }
    await assertOpen(ctx, row, submission.locale);
    const answers = checkAnswers(form, submission, submission.locale);
    // A file sent for a field its condition hides is not kept.
    if (submission.file && !Object.hasOwn(answers, submission.file.field)) {
      await removeObjects(ctx.storage, ctx.log, [submission.file.stored.key]);
      submission = { ...submission, file: undefined };
    }
    const judgement = judge(ctx, row, submission);
    const email = respondentEmail(form, answers) ?? submission.user?.email?.toLowerCase() ?? null;
    const values = {
      formId: form.id, answers: { ...answers }, email, userId: submission.user?.id ?? null, locale: submission.locale, submittedAt: ctx.clock.now(),
      files: submission.file && Object.hasOwn(answers, submission.file.field) ? { [submission.file.field]: submission.file.stored } : {},
    };
    // As before the single statement: a response already caught (all but a replay, known only at insert) is not counted.
    const counted = !judgement.before && !judgement.after && form.maxResponses !== null;
    // One statement when nothing else is to be written with it; a transaction otherwise.
    if (!counted && !await setsOff(ctx, row, email, submission)) {
      await insertResponse(ctx, values, judgement);
    } else {
      await inTransaction(ctx, async (tx) => {
        // Only a form with a maximum serializes its responses: the row lock makes the count and the insert one step.
        // NO KEY UPDATE: the key-share locks the foreign keys of the rows inserted meanwhile take do not conflict with it.
        if (counted) {
          await tx.db.select({ id: forms.id }).from(forms).where(eq(forms.id, form.id)).for('no key update');
          if (await acceptedCount(tx, form.id) >= form.maxResponses!) throw formFull();
        }
        const response = await insertResponse(tx, values, judgement);
        if (response.status === 'received') await announceResponse(tx, row, response, submission.user?.realmName ?? null, true);
      });
    }
  } catch (err) {
    if (submission.file) await removeObjects(ctx.storage, ctx.log, [submission.file.stored.key]);
    // The form was deleted after it was looked up (or while it was cached): gone, as it is to everyone from now on.
    if (foreignKeyViolation(err) === 'form_responses_form_id_forms_id_fk') throw notFound('Form');
    throw err;
  }
  const t = formTexts(submission.locale);
  return { status: 'received', message: labelOf(form.successMessage, submission.locale, form.defaultLocale) || t.thanks, redirect_url: form.redirectUrl };
}
