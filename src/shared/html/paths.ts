import type { Realm } from '../../realms/realms.js';

/** The address of one of a realm's pages (`login`, `signup`, `otp_code`...). */
export const pagePath = (realm: Pick<Realm, 'uid'>, page: string) => `/realms/${encodeURIComponent(realm.uid)}/${page}`;

/** A page's address carrying the `redirect_uri` the visitor will be sent on to, when there is one. */
export const withRedirect = (path: string, redirectUri: string | undefined) =>
  (redirectUri ? `${path}?${new URLSearchParams({ redirect_uri: redirectUri })}` : path);
