import type { Context } from '../context.js';
import { recordEvent } from '../events/events.js';
import { AppError, type FieldError } from '../http/errors.js';
import { fieldsOf, type CustomField } from './custom-fields.js';
import type { FieldValue } from './field-values.js';
import type { Realm } from './realms.js';
import type { ActivationMode } from './schema.js';
import { writeRealmUser, type RealmUser } from './users.js';

/** The modes whose signup page works today; the link-based ones wait for the one-time link primitive. */
export const OPEN_SIGN_UP_MODES: readonly ActivationMode[] = ['direct', 'otp', 'moderated'];

export const signUpOpen = (realm: Realm) => OPEN_SIGN_UP_MODES.includes(realm.activationMode as ActivationMode);

/** The custom fields a visitor fills in on sign-up: the required ones the user may see and change. */
export async function signUpFields(ctx: Context, realm: Realm): Promise<CustomField[]> {
  return (await fieldsOf(ctx, realm.id)).filter((field) => field.required && field.visible && field.editable);
}

export interface SignUpInput {
  email: string;
  username: string | null;
  password: string;
  customFields: { key: string; value: FieldValue }[];
}

export type SignUpResult =
  | { outcome: 'created'; user: RealmUser }
  /** The email belongs to a user already: nothing was written, and the caller answers as for a sign-up. */
  | { outcome: 'email_taken' }
  | { outcome: 'invalid'; errors: FieldError[] };

const EMAIL_TAKEN = 'has already been taken';

/**
 * Creates the user a visitor signs up as (inactive when the realm is moderated) and records
 * `user_signup_log`. Every field is checked by the one user writer; an email already taken is told
 * apart from the other problems so that the page can keep it secret.
 */
export async function signUp(ctx: Context, realm: Realm, input: SignUpInput, fields: CustomField[]): Promise<SignUpResult> {
  let user: RealmUser;
  try {
    user = await writeRealmUser(ctx, realm, null, {
      email: input.email, username: input.username, password: input.password || undefined,
      active: realm.activationMode !== 'moderated', custom_fields: input.customFields,
    }, { fields });
  } catch (err) {
    if (!(err instanceof AppError) || err.status !== 422 || !err.details) throw err;
    const errors = err.details
      .map((d) => (d.field === 'email' ? { ...d, messages: d.messages.filter((m) => m !== EMAIL_TAKEN) } : d))
      .filter((d) => d.messages.length);
    if (errors.length) return { outcome: 'invalid', errors };
    return { outcome: 'email_taken' };
  }
  await recordEvent(ctx, { realmId: realm.id, userId: user.id, type: 'user_signup_log', properties: { activation_mode: realm.activationMode } });
  return { outcome: 'created', user };
}
