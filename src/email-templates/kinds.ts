import type { Locale } from '../i18n/locale.js';
import { textsIn } from '../shared/html/messages.js';

/** The mails Atrium writes whose wording an admin may change, each with the variables its templates read. */
export const TEMPLATE_KINDS = [
  'one_time_code', 'password_reset', 'activation', 'invitation', 'email_change', 'email_change_notice',
  'member_invitation', 'form_notification', 'form_confirmation', 'campaign_layout',
] as const;
export type TemplateKind = typeof TEMPLATE_KINDS[number];

export const isTemplateKind = (value: string): value is TemplateKind => (TEMPLATE_KINDS as readonly string[]).includes(value);

export interface TemplateVariable {
  name: string;
  description: string;
  /** What previews and test sends render with (in English). */
  example: unknown;
  /** The example in another language, where it is words. */
  exampleIn?: (locale: Locale) => unknown;
}

export interface KindDefinition {
  description: string;
  variables: TemplateVariable[];
}

const REALM: TemplateVariable = { name: 'realm', description: 'The realm: `{uid, name}`', example: { uid: 'personal-banking', name: 'Personal Banking' } };
const USER: TemplateVariable = {
  name: 'user', description: 'The recipient: `{email, username, first_name, last_name, name}` (`name`: first and last name)',
  example: { email: 'ada@example.com', username: 'ada', first_name: 'Ada', last_name: 'Lovelace', name: 'Ada Lovelace' },
};
const validFor = (n: number, unit: 'minutes' | 'hours' | 'days'): TemplateVariable => ({
  name: 'valid_for', description: 'How long the code or link works, in the mail\'s language (`30 minutes`)',
  example: textsIn('en')[unit](n), exampleIn: (locale) => textsIn(locale)[unit](n),
});
const url = (what: string, example: string): TemplateVariable => ({ name: 'url', description: `The ${what} link (single use)`, example });
const NEW_EMAIL: TemplateVariable = { name: 'new_email', description: 'The address the user asked to change to', example: 'ada.new@example.com' };

/** The form kinds' variables are fixed here for forms/ to fill: `form`, `response`, `realm` (nil for a form of no realm). */
const FORM_VARIABLES: TemplateVariable[] = [
  { name: 'form', description: 'The form: `{name, uid}`', example: { name: 'Contact us', uid: 'contact' } },
  {
    name: 'response', description: 'The response: `{id, submitted_at, email, answers}`, `answers` a list of `{label, value}`',
    example: { id: 42, submitted_at: '2026-01-15T10:30:00.000Z', email: 'ada@example.com', answers: [{ label: 'Name', value: 'Ada Lovelace' }, { label: 'Message', value: 'Hello!' }] },
  },
  { ...REALM, description: 'The form\'s realm: `{uid, name}`, or nil for a public form of the account' },
];

/** The registry: what each kind is and what its templates may read. */
export const KINDS: Record<TemplateKind, KindDefinition> = {
  one_time_code: {
    description: 'A one-time sign-in code (the otp_login page, the customers API)',
    variables: [REALM, USER, { name: 'code', description: 'The 6-digit code', example: '123456' }, validFor(10, 'minutes')],
  },
  password_reset: {
    description: 'A link to choose a new password (the forgotten password page)',
    variables: [REALM, USER, url('password reset', 'https://atrium.example/realms/personal-banking/password/reset/TOKEN'), validFor(30, 'minutes')],
  },
  activation: {
    description: 'A link that confirms the address of an account signed up in an `activation_email` realm',
    variables: [REALM, USER, url('activation', 'https://atrium.example/realms/personal-banking/activation/TOKEN'), validFor(24, 'hours')],
  },
  invitation: {
    description: 'An invitation of an address to sign up to a realm',
    variables: [REALM, { name: 'email', description: 'The invited address', example: 'ada@example.com' },
      url('sign-up', 'https://atrium.example/realms/personal-banking/signup?invitation=TOKEN'), validFor(7, 'days')],
  },
  email_change: {
    description: 'A link, sent to the new address, that makes it the address of the account',
    variables: [REALM, USER, NEW_EMAIL, url('confirmation', 'https://atrium.example/realms/personal-banking/email_change/TOKEN'), validFor(24, 'hours')],
  },
  email_change_notice: {
    description: 'A notice to the old address that a change of address was asked for',
    variables: [REALM, USER, NEW_EMAIL, validFor(24, 'hours')],
  },
  member_invitation: {
    description: 'An invitation of a team member to the admin console (`POST /team_members/invitations`): a link to choose a password',
    variables: [
      { name: 'account', description: 'The account: `{name}`', example: { name: 'Atrium' } },
      { name: 'member', description: 'The invited member: `{email, name}`', example: { email: 'grace@example.com', name: 'Grace Hopper' } },
      url('invitation', 'https://atrium.example/admin/invitation/TOKEN'), validFor(7, 'days'),
    ],
  },
  form_notification: { description: 'A new response, mailed to the form\'s notification addresses', variables: FORM_VARIABLES },
  form_confirmation: { description: 'The confirmation mailed to the person who answered a form', variables: FORM_VARIABLES },
  campaign_layout: {
    description: 'The layout around a mailing\'s HTML, for campaigns with `use_layout`',
    variables: [{ name: 'content', description: 'The campaign\'s HTML, written as is', example: '<h1>News</h1><p>Our autumn offers.</p>' }, REALM],
  },
};

/** The example values of a kind's variables in a language, for previews and test sends. */
export function exampleVariables(kind: TemplateKind, locale: Locale = 'en'): Record<string, unknown> {
  return Object.fromEntries(KINDS[kind].variables.map((v) => [v.name, v.exampleIn ? v.exampleIn(locale) : v.example]));
}

/** `name: description` lines of a kind's variables, for the reference pages. */
export const variablesNote = () => TEMPLATE_KINDS.map((kind) => `- \`${kind}\`: ${KINDS[kind].variables.map((v) => `\`${v.name}\``).join(', ')}`).join('\n');
