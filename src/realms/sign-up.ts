import type { Locale } from '../i18n/locale.js';
import { and, eq, sql } from 'drizzle-orm';
import type { AttemptLimit } from '../attempts/limit.js';
import { normalizeEmail } from '../admin-auth/team.js';
import { inTransaction, type Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { recordEvent } from '../events/events.js';
import { AppError, type FieldError } from '../errors/index.js';
import { fieldsOf, type CustomField } from './custom-fields.js';
import type { FieldValue } from './field-values.js';
import { claimLink, expireLinks } from './links.js';
import type { Realm } from './realms.js';
import type { ActivationMode } from './schema.js';
import { realmUsers } from '../tables/realms.js';
import { writeRealmUser, type RealmUser } from './users.js';

/** The modes whose signup page offers its form to anyone; `invitation_only` offers it to an invitation's holder. */
export const OPEN_SIGN_UP_MODES: readonly ActivationMode[] = ['direct', 'otp', 'activation_email', 'moderated'];

export const signUpOpen = (realm: Realm) => OPEN_SIGN_UP_MODES.includes(realm.activationMode as ActivationMode);

/** Sign-up posts per client address and realm, successful ones included: the 21st within the hour after the 20th is refused. */
export const SIGN_UP_PER_ADDRESS: AttemptLimit = { scope: 'realm_sign_up_address', max: 20, lockMs: 60 * 60_000 };

/** The custom fields a visitor fills in on sign-up: the required ones the user may see and change. */
export async function signUpFields(ctx: Context, realm: Realm): Promise<CustomField[]> {
  return (await fieldsOf(ctx, realm.id)).filter((field) => field.required && field.visible && field.editable);
}

export interface SignUpInput {
  email: string;
  username: string | null;
  password: string;
  customFields: { key: string; value: FieldValue }[];
  /** The page's language: the user's mails are written in it. */
  locale?: Locale;
}

export type SignUpResult =
  | { outcome: 'created'; user: RealmUser }
  /** The email belongs to a user already: nothing was written, and the caller answers as for a sign-up. */
  | { outcome: 'email_taken' }
  | { outcome: 'invalid'; errors: FieldError[] }
  /** The invitation is unknown, or was used, replaced or has expired: nothing was written. */
  | { outcome: 'invitation_dead'; reason: 'unknown' | 'gone' };

const EMAIL_TAKEN = 'has already been taken';
/** A required checkbox comes unticked as no value: "can't be blank" is said the way a checkbox is read. */
const UNTICKED = 'must be ticked';

class InvitationDead extends Error {
  constructor(readonly reason: 'unknown' | 'gone') {
    super(reason);
  }
}

/** The user of the address still waiting for its activation link, locked against the link's use meanwhile. */
async function lockPendingUser(db: Db, realm: Realm, email: string): Promise<RealmUser | undefined> {
  const [user] = await db.select().from(realmUsers).where(and(
    eq(realmUsers.realmId, realm.id), sql`lower(${realmUsers.email}) = ${normalizeEmail(email)}`,
    eq(realmUsers.confirmationPending, true), eq(realmUsers.active, false),
  )).for('update');
  return user;
}

/**
 * Creates the user a visitor signs up as and records `user_signup_log`. By the realm's mode: inactive
 * when moderated; inactive and pending confirmation in `activation_email` (activation.ts mails the
 * link). With an invitation token the email is the invited address and the user is active whatever
 * the mode (an administrator invited it, and holding the link proves the address); the invitation
 * is used up in the transaction that creates the user, so it makes one account however often it is
 * posted at once. In `activation_email`, an address whose account still waits for its link is signed
 * up anew: the pending account takes this sign-up's password and its earlier links die, so a link
 * opens only the password its own sign-up chose. Every field is checked by the one user writer; an
 * email already taken is told apart from the other problems so that the page can keep it secret.
 */
export async function signUp(ctx: Context, realm: Realm, input: SignUpInput, fields: CustomField[], invitation?: string): Promise<SignUpResult> {
  const invited = invitation !== undefined;
  const mode = realm.activationMode;
  const create = async (writer: Context, email: string) => {
    const user = await writeRealmUser(writer, realm, null, {
      email, username: input.username, password: input.password || undefined,
      active: invited || (mode !== 'moderated' && mode !== 'activation_email'), custom_fields: input.customFields, locale: input.locale,
    }, {
      fields, confirmationPending: !invited && mode === 'activation_email', moderationPending: !invited && mode === 'moderated', emailVerified: invited,
    });
    await recordEvent(writer, {
      realmId: realm.id, userId: user.id, type: 'user_signup_log', properties: { activation_mode: mode, ...(invited ? { invited: true } : {}) },
    });
    return user;
  };
  // The pending user's password (and username, field values) become this sign-up's; its earlier links stop working.
  const replace = async (writer: Context, pending: RealmUser) => {
    await expireLinks(writer, realm, { purpose: 'activation', userId: pending.id, email: pending.email });
    const user = await writeRealmUser(writer, realm, pending, {
      username: input.username, password: input.password || undefined, custom_fields: input.customFields, locale: input.locale,
    }, { fields });
    await recordEvent(writer, { realmId: realm.id, userId: user.id, type: 'user_signup_log', properties: { activation_mode: mode, replaced_pending: true } });
    return user;
  };
  try {
    if (invitation !== undefined) {
      const user = await inTransaction(ctx, async (tx) => {
        const claimed = await claimLink(tx, realm, 'invitation', invitation);
        if (!claimed.ok) throw new InvitationDead(claimed.reason);
        return create(tx, claimed.link.email);
      });
      return { outcome: 'created', user };
    }
    if (mode !== 'activation_email') return { outcome: 'created', user: await create(ctx, input.email) };
    const user = await inTransaction(ctx, async (tx) => {
      const pending = await lockPendingUser(tx.db, realm, input.email);
      return pending ? replace(tx, pending) : create(tx, input.email);
    });
    return { outcome: 'created', user };
  } catch (err) {
    if (err instanceof InvitationDead) return { outcome: 'invitation_dead', reason: err.reason };
    if (!(err instanceof AppError) || err.kind !== 'invalid' || !err.details) throw err;
    const checkboxes = new Set(fields.filter((f) => f.type === 'checkbox').map((f) => `custom_fields.${f.key}`));
    const errors = err.details
      .map((d) => (d.field === 'email' && invitation === undefined ? { ...d, messages: d.messages.filter((m) => m !== EMAIL_TAKEN) } : d))
      .map((d) => (checkboxes.has(d.field) ? { ...d, messages: d.messages.map((m) => (m === "can't be blank" ? UNTICKED : m)) } : d))
      .filter((d) => d.messages.length);
    if (errors.length) return { outcome: 'invalid', errors };
    return { outcome: 'email_taken' };
  }
}
