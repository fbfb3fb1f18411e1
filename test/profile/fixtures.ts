import type { Harness } from '../helpers/harness.js';
import { REALM_USER_PASSWORD, signInAtLoginPage } from '../helpers/realms.js';

export { accessTokenFor as accessToken } from '../oauth/fixtures.js';

export const USER_SESSION = { error: { user_session: 'user not found' } };
export const GRANT_EXPIRED = { error: { grant_expired: 'session expired' } };

/** Signs in at the realm's login page from a browser that sends this User-Agent; answers the session cookie. */
export const signInAs = (h: Harness, realmUid: string, email: string, userAgent = 'lightMyRequest') =>
  signInAtLoginPage(h, realmUid, email, REALM_USER_PASSWORD, { 'user-agent': userAgent });
