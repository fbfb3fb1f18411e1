import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../admin-auth/principal.js';
import { callbackPath } from '../delegation/settings.js';
import type { Realm } from '../realms/realms.js';
import { pagePath } from '../shared/html/paths.js';
import { metadataOf, openidConfigurationOf } from './metadata.js';
import type { RealmAddressesModel } from './schema.js';

/**
 * What an app or an identity provider is configured with for this realm: its pages (on its custom domain when it has
 * one, where its users meet them), its OAuth endpoints as the metadata document gives them, and the delegated
 * sign-in's redirect URIs (the flow returns to the host it started on, so both when there is a custom domain).
 */
export function realmAddresses(ctx: ActingContext, realm: Realm): Static<typeof RealmAddressesModel> {
  ctx.actor.assertHolds('realms.read', realm.uid);
  const base = new URL(ctx.config.baseUrl);
  const origins = [base.origin, ...(realm.customDomain ? [`${base.protocol}//${realm.customDomain}`] : [])];
  const pages = origins[origins.length - 1];
  const metadata = metadataOf(ctx, realm);
  const issuer = new URL(metadata.issuer);
  return {
    pages: {
      sign_in: `${pages}${pagePath(realm, 'login')}`,
      sign_up: `${pages}${pagePath(realm, 'signup')}`,
      one_time_code: `${pages}${pagePath(realm, 'otp_login')}`,
      password_reset: `${pages}${pagePath(realm, 'password')}`,
    },
    oauth: {
      issuer: metadata.issuer,
      // RFC 8414 section 3: the well-known segment goes between the issuer's host and its path.
      metadata: `${issuer.origin}/.well-known/oauth-authorization-server${issuer.pathname}`,
      authorization_endpoint: metadata.authorization_endpoint,
      token_endpoint: metadata.token_endpoint,
      revocation_endpoint: metadata.revocation_endpoint,
    },
    openid_connect: realm.openidConnectEnabled ? openidAddresses(ctx, realm) : null,
    identity_provider_callbacks: origins.map((origin) => `${origin}${callbackPath(realm)}`),
  };
}

function openidAddresses(ctx: ActingContext, realm: Realm) {
  const configuration = openidConfigurationOf(ctx, realm);
  return {
    discovery: `${configuration.issuer}/.well-known/openid-configuration`,
    jwks_uri: configuration.jwks_uri,
    userinfo_endpoint: configuration.userinfo_endpoint,
    introspection_endpoint: configuration.introspection_endpoint,
    end_session_endpoint: configuration.end_session_endpoint,
  };
}
