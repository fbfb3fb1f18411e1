import { Type } from '@sinclair/typebox';
import { DateTime, Id, Nullable } from '../http/models.js';
import { PageQuery } from '../http/pagination.js';
import { LOCALES } from '../i18n/locale.js';
import { KINDS, TEMPLATE_KINDS } from './kinds.js';
import { TEMPLATE_LIMITS } from './render.js';

const Kind = Type.Union(TEMPLATE_KINDS.map((kind) => Type.Literal(kind)), { description: 'The kind of mail' });
export const KindParam = Type.Object({ kind: Kind });
export const RealmKindParams = Type.Object({ realm_uid: Type.String({ maxLength: 100, description: 'The realm\'s uid' }), kind: Kind });
export const VersionsQuery = Type.Object(PageQuery);

const Format = Type.Union([Type.Literal('html'), Type.Literal('mjml')], { description: 'What the HTML body is written in: HTML, or MJML compiled to HTML when sent' });
const Subject = Type.String({ maxLength: TEMPLATE_LIMITS.subject, description: 'Liquid, rendered as plain text on one line' });
const Html = Type.String({ maxLength: TEMPLATE_LIMITS.body, description: 'Liquid (HTML-escaping `{{ }}`; `| raw` writes as is), in HTML or MJML; empty: a text-only mail' });
const Text = Type.String({ maxLength: TEMPLATE_LIMITS.body, description: 'Liquid, the plain-text part' });

const LocaleContent = Type.Object({ subject: Subject, html: Html, text: Text }, { additionalProperties: false });
const Locales = Type.Record(Type.String({ maxLength: 20 }), LocaleContent, {
  maxProperties: 10, description: `The content in each language, by locale: every one of ${LOCALES.join(', ')}`,
});

export const TemplateInput = Type.Object({ format: Type.Optional(Format), locales: Locales });

export const TemplateModel = Type.Object({
  kind: Kind,
  realm_uid: Nullable(Type.String(), 'The realm of an override; null for the account\'s default'),
  source: Type.Union([Type.Literal('shipped'), Type.Literal('account'), Type.Literal('realm')], {
    description: 'Where the content comes from: the realm\'s override, the account\'s default, or the shipped wording (no template saved)',
  }),
  format: Format,
  locales: Locales,
  updated_at: Nullable(DateTime),
  updated_by: Nullable(Type.Integer(), 'The team member who saved it'),
}, { $id: 'EmailTemplate', description: 'A mail template in force: its content in every language' });

export const TemplateVersionModel = Type.Object({
  id: Type.Integer(),
  action: Type.Union([Type.Literal('saved'), Type.Literal('reset')], { description: '`reset`: the template was removed, the next one applied' }),
  format: Nullable(Format),
  locales: Nullable(Locales),
  admin_id: Nullable(Type.Integer()),
  admin_name: Nullable(Type.String(), 'The name (else the address) of the member who saved or reset it; null for the installation itself or a member since removed'),
  created_at: DateTime,
}, { $id: 'EmailTemplateVersion', description: 'One save or reset of a template' });

export const PreviewInput = Type.Object({
  locale: Type.Optional(Type.String({ maxLength: 20, description: `The language (${LOCALES.join(', ')}); the realm's default language, else en` })),
  user_id: Type.Optional(Id({ description: 'A user of the realm whose data fills the variables (realm templates only; needs `realm.users.read` on the realm)' })),
  draft: Type.Optional(Type.Object({ format: Type.Optional(Format), subject: Subject, html: Html, text: Text }, {
    description: 'Content not saved yet, in that language; the saved template otherwise',
  })),
});

export const RenderedModel = Type.Object({
  subject: Type.String(),
  html: Type.String({ description: 'The HTML part as sent (MJML compiled, CSS inlined); empty when the mail has none' }),
  text: Type.String(),
}, { $id: 'RenderedEmail', description: 'A mail as it is sent' });

export const TestSendModel = Type.Object({ to: Type.String({ description: 'The acting member\'s address' }) });

export const KindModel = Type.Object({
  kind: Kind,
  description: Type.String(),
  variables: Type.Array(Type.Object({ name: Type.String(), description: Type.String(), example: Type.Unknown() })),
}, { $id: 'EmailTemplateKind', description: 'A kind of mail and the variables its templates read' });

export const kindList = () => TEMPLATE_KINDS.map((kind) => ({ kind, ...KINDS[kind] }));
