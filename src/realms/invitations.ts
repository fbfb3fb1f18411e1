import { and, eq, sql } from 'drizzle-orm';
import { isEmail, normalizeEmail } from '../admin-auth/team.js';
import type { ActingContext } from '../admin-auth/principal.js';
import { queueTemplatedMail } from '../email-templates/queue.js';
import { invalidField, signUpDisabled } from '../errors/index.js';
import { issueLink } from './links.js';
import { realmLanguage, textsIn } from '../shared/html/messages.js';
import type { Realm } from './realms.js';
import { realmUsers } from '../tables/realms.js';

export const INVITATION_DAYS = 7;

export interface InvitationBody {
  email: string;
  expires_at: string;
}

/**
 * Mails an invitation to sign up: a one-time link to the realm's signup page, valid INVITATION_DAYS,
 * that fixes the account's email to the invited address. Inviting an address again replaces its
 * earlier link. The token goes only into the mail.
 */
export async function inviteRealmUser(ctx: ActingContext, realm: Realm, rawEmail: string): Promise<InvitationBody> {
  ctx.actor.assertHolds('realm.users.write', realm.uid);
  if (realm.activationMode === 'disabled') throw signUpDisabled();
  const email = normalizeEmail(rawEmail);
  if (!email) throw invalidField('email', "can't be blank");
  if (!isEmail(email) || email.length > 255) throw invalidField('email', 'is invalid');
  const [taken] = await ctx.db.select({ id: realmUsers.id }).from(realmUsers)
    .where(and(eq(realmUsers.realmId, realm.id), sql`lower(${realmUsers.email}) = ${email}`)).limit(1);
  if (taken) throw invalidField('email', 'has already been taken');
  const { token, expiresAt } = await issueLink(ctx, realm, {
    purpose: 'invitation', userId: null, email, lifetimeMs: INVITATION_DAYS * 24 * 60 * 60_000,
  });
  const url = `${ctx.config.baseUrl}/realms/${encodeURIComponent(realm.uid)}/signup?${new URLSearchParams({ invitation: token })}`;
  // No page asks for it: the mail is in the realm's default language. Queued with the link, in the request's
  // transaction: a slow or failing mail server delays the mail, it neither fails the answer nor loses the mail.
  const locale = realmLanguage(realm);
  await queueTemplatedMail(ctx, {
    to: email, kind: 'invitation', realmId: realm.id, locale,
    variables: { realm: { uid: realm.uid, name: realm.name }, email, url, valid_for: textsIn(locale).days(INVITATION_DAYS) },
  });
  return { email, expires_at: expiresAt.toISOString() };
}
