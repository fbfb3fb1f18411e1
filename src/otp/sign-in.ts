import type { Context } from '../context.js';
import { recordEvent } from '../events/events.js';
import type { Realm } from '../realms/realms.js';
import { startRealmSession, type SessionOrigin, type StartedSession } from '../realms/sessions.js';
import { checkCode, type CodeCheck } from './codes.js';

export type CodeSignIn = { ok: true; session: StartedSession } | Exclude<CodeCheck, { ok: true }>;

/** Signs a realm user in with a one-time code: a fresh session, and `user_otp_login_log` recorded. */
export async function signInWithCode(ctx: Context, realm: Realm, identifier: string, code: string, origin: SessionOrigin = {}): Promise<CodeSignIn> {
  const result = await checkCode(ctx, realm, identifier, code.trim());
  if (!result.ok) return result;
  const session = await startRealmSession(ctx, realm, result.user.id, { ...origin, authMethods: ['otp'] });
  await recordEvent(ctx, { realmId: realm.id, userId: result.user.id, type: 'user_otp_login_log' });
  return { ok: true, session };
}
