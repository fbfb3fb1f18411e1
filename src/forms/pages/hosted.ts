import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { AppError } from '../../errors/index.js';
import { readFileForm } from '../../http/multipart.js';
import { statusOf } from '../../http/errors.js';
import { resolveSession } from '../../realms/credential.js';
import { findRealmByUid, type Realm } from '../../realms/realms.js';
import { realmCookieName } from '../../realms/sessions.js';
import { html, Markup, pageErrorHandler, pageNotFound, sendPage } from '../../shared/html/layout.js';
import { textsIn } from '../../shared/html/messages.js';
import { discardFile, receiveFile, uploadLimits, type ReceivedFile } from '../../uploads/attachments.js';
import { refuseFile } from '../../storage/checks.js';
import type { FormRow } from '../../tables/forms.js';
import { HONEYPOT } from '../definition.js';
import { respondentLocale } from '../doors.js';
import { answeredForm, type FormWithRealm } from '../forms.js';
import { choicePart, FORM_STYLE, formMarkup } from '../render.js';
import { assertOpen, submitResponse, type Submission } from '../respond.js';
import { formTexts } from '../texts.js';
import { issueFormToken } from '../tokens.js';

const Params = Type.Object({ form_uid: Type.String({ maxLength: 100 }) });

/** A page post's answers by field name: a multiple choice from its one part per option. */
function pageValues(form: FormRow, parts: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = Object.create(null);
  const part = (name: string) => (Object.hasOwn(parts, name) ? parts[name] : undefined);
  for (const field of form.fields) {
    if (field.type === 'multiple_choice') {
      values[field.name] = field.options!.map((_, i) => part(choicePart(field.name, i))).filter((v) => typeof v === 'string');
    } else if (field.type !== 'file') {
      const value = part(field.name);
      values[field.name] = Array.isArray(value) ? value[0] : value;
    }
  }
  return values;
}

/**
 * The hosted page of a form, `/forms/{form_uid}`: server-rendered, no script, in the form's language the
 * browser prefers (or `?locale`), branded like its realm's pages. A form of a realm's users asks them to
 * sign in first (the realm's sign-in page, back here after). Its token is bound to the signed-in user, so a
 * page of another user cannot be posted on one's behalf (the token does the CSRF check's work).
 */
export function hostedFormPages(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    scope.setErrorHandler(pageErrorHandler);

    async function load(request: FastifyRequest, reply: FastifyReply, uid: string) {
      const row = await answeredForm(ctx, uid);
      if (!row) return { done: pageNotFound(reply) };
      const realm = row.realmUid ? await findRealmByUid(ctx, row.realmUid) : undefined;
      if (row.form.access !== 'realm_users') return { row, realm, user: null };
      const session = realm && realm.active ? await resolveSession(ctx, realm.uid, request.cookies[realmCookieName(realm.uid)]) : undefined;
      const customer = session && typeof session.resolution === 'object' ? session.resolution : null;
      if (!customer) {
        const back = encodeURIComponent(`/forms/${row.form.uid}`);
        return { done: reply.code(303).header('location', `/realms/${encodeURIComponent(row.realmUid!)}/login?redirect_uri=${back}`).send() };
      }
      return { row, realm, user: { id: customer.user.id, email: customer.user.email, realmId: customer.realm.id, realmName: customer.realm.name } };
    }

    function page(reply: FastifyReply, status: number, row: FormWithRealm, realm: Realm | undefined, locale: string, body: Markup) {
      return sendPage(reply, status, {
        texts: textsIn(locale === 'es' ? 'es' : 'en'), realm, title: row.form.name,
        body: html`<style>${new Markup(FORM_STYLE)}</style>${body}`,
      });
    }

    function formPage(reply: FastifyReply, status: number, row: FormWithRealm, realm: Realm | undefined, locale: string, userId: number | null, extra: Partial<Parameters<typeof formMarkup>[0]> = {}) {
      const token = extra.token ?? issueFormToken(ctx, row.form.id, userId);
      return page(reply, status, row, realm, locale, formMarkup({ form: row.form, locale, action: `/forms/${row.form.uid}`, token, ...extra }));
    }

    app.get('/forms/:form_uid', { schema: { params: Params, hide: true } }, async (request, reply) => {
      const loaded = await load(request, reply, request.params.form_uid);
      if (loaded.done) return loaded.done;
      const { row, realm, user } = loaded;
      const locale = respondentLocale(row.form, request);
      try {
        await assertOpen(ctx, row, locale);
      } catch (err) {
        if (err instanceof AppError) return page(reply, statusOf(err.kind), row, realm, locale, html`<p class="notice">${err.messages.join(' ')}</p>`);
        throw err;
      }
      return formPage(reply, 200, row, realm, locale, user?.id ?? null);
    });

    app.post('/forms/:form_uid', { schema: { params: Params, hide: true } }, async (request, reply) => {
      const loaded = await load(request, reply, request.params.form_uid);
      if (loaded.done) return loaded.done;
      const { row, realm, user } = loaded;
      const fileField = row.form.fields.find((f) => f.type === 'file')?.name;
      let parts: Record<string, unknown>;
      let file: ReceivedFile | undefined;
      if (request.isMultipart()) {
        const limits = await uploadLimits(ctx);
        const form = await readFileForm(request, {
          field: fileField ?? 'file', maxBytes: limits.maxBytes,
          receive: (part) => receiveFile(ctx, part, limits, 'forms'),
          discard: (received) => discardFile(ctx, received),
        });
        parts = form.fields;
        file = form.file;
      } else {
        parts = (request.body ?? {}) as Record<string, unknown>;
      }
      const named = typeof parts.locale === 'string' ? parts.locale : undefined;
      const locale = respondentLocale(row.form, request, named);
      const values = pageValues(row.form, parts);
      const submission: Submission = {
        values, strict: false, token: typeof parts.form_token === 'string' ? parts.form_token : undefined,
        honeypot: parts[HONEYPOT], ip: request.ip, user, locale,
        file: file && fileField && !file.reasons.length && file.size > 0
          ? { field: fileField, stored: { key: file.key, name: file.name, size: file.size, content_type: file.contentType } } : undefined,
      };
      try {
        if (file && fileField && file.reasons.length) refuseFile(file.reasons, fileField);
        const accepted = await submitResponse(ctx, row, submission);
        if (accepted.redirect_url) return reply.code(303).header('location', accepted.redirect_url).send();
        return page(reply, 201, row, realm, locale, html`<p class="notice" role="status">${accepted.message}</p>`);
      } catch (err) {
        if (!(err instanceof AppError) || statusOf(err.kind) >= 500 || err.kind === 'not_found') throw err;
        if (err.kind === 'invalid') {
          const texts = formTexts(locale);
          return formPage(reply, 422, row, realm, locale, user?.id ?? null, {
            values, errors: err.details ?? [{ field: 'base', messages: [texts.fixErrors] }],
            // The token was not used (the answers were refused first): kept, so the fill time still counts from the first page.
            ...(submission.token ? { token: submission.token } : {}),
          });
        }
        const message = err.kind === 'rate_limited' ? formTexts(locale).tooMany : err.messages.join(' ');
        return page(reply, statusOf(err.kind), row, realm, locale, html`<p class="alert" role="alert">${message}</p>`);
      }
    });
  };
}
