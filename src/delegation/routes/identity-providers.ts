import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { acting } from '../../admin-auth/guard.js';
import type { Context } from '../../context.js';
import { ref, useModels } from '../../http/models.js';
import { failures, NoContent } from '../../http/responses.js';
import { RealmUidParam } from '../../realms/schema.js';
import { ClaimMappingModel, IdentityProviderInput, IdentityProviderModel } from '../schema.js';
import { deleteIdentityProvider, getIdentityProvider, putIdentityProvider } from '../settings.js';

const tags = ['Identity provider'];
const path = '/customers/:realm_uid/identity_provider';

/** Admin API: a realm's OpenID Connect identity provider (sign-in delegation). */
export function identityProviderRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, ClaimMappingModel, IdentityProviderModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get(path, {
      config: { access: 'realms.read', target: 'realm_uid' },
      schema: {
        tags, summary: 'Show a realm\'s identity provider',
        description: 'Everything but the client secret, and the redirect URI to register at the provider. 404 when the realm has none.',
        params: RealmUidParam, response: { 200: ref(IdentityProviderModel), ...failures(401, 403, 404) },
      },
    }, async (request) => getIdentityProvider(acting(ctx, request), request.realm));

    app.put(path, {
      config: { access: 'realms.manage', target: 'realm_uid' },
      schema: {
        tags, summary: 'Set up or change a realm\'s identity provider',
        description: 'Needs `realm.users.impersonate` on the realm besides `realms.manage` (403 otherwise): the provider can sign in as '
          + 'any user of the realm. A new or changed issuer is recorded in the audit log (`identity_provider_issuer_changed`). '
          + 'The issuer must be https and outside private, loopback and link-local ranges (http and such addresses only with '
          + 'OUTBOUND_ALLOW_PRIVATE=1). The first time, `issuer`, `client_id`, `client_secret` and `button_label` are required; '
          + 'afterwards the change is partial (left out, the stored client secret is kept). Every PUT reads the provider\'s OpenID discovery document: an '
          + 'issuer that does not answer one (or answers another issuer) is a 422 on `issuer`. The client secret is stored encrypted '
          + 'and never answered. `show_delegation_information` is the realm\'s setting of that name. A new issuer forgets the '
          + 'provider tokens and account links of the previous one.',
        params: RealmUidParam, body: IdentityProviderInput,
        response: { 200: ref(IdentityProviderModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => putIdentityProvider(acting(ctx, request), request.realm, request.body, request.ip));

    app.delete(path, {
      config: { access: 'realms.manage', target: 'realm_uid' },
      schema: {
        tags, summary: 'Remove a realm\'s identity provider',
        description: 'Needs `realm.users.impersonate` on the realm besides `realms.manage` (403 otherwise); recorded in the audit log '
          + '(`identity_provider_issuer_changed`). The login page no longer offers it; the provider tokens kept for sessions and the users\' links to their '
          + 'provider accounts are deleted. Users, their sessions and the realm\'s settings stay.',
        params: RealmUidParam, response: { 204: NoContent, ...failures(401, 403, 404) },
      },
    }, async (request, reply) => {
      await deleteIdentityProvider(acting(ctx, request), request.realm, request.ip);
      return reply.code(204).send(null);
    });
  };
}
