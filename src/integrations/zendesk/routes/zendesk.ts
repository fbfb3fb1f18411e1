import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { acting } from '../../../admin-auth/guard.js';
import type { Context } from '../../../context.js';
import { ErrorBody } from '../../../http/errors.js';
import { ref, useModels } from '../../../http/models.js';
import { failures, NoContent } from '../../../http/responses.js';
import { customerOf } from '../../../customers/credential.js';
import { credentialFailures, RealmNotFound } from '../../../customers/schema.js';
import { RealmUidParam } from '../../../realms/schema.js';
import { deleteZendeskIntegration, getZendeskIntegration, putZendeskIntegration } from '../settings.js';
import { ZendeskIntegrationInput, ZendeskIntegrationModel, ZendeskSsoUrlModel, ZendeskTokenModel } from '../schema.js';
import { zendeskSsoUrl, zendeskToken } from '../token.js';

const tags = ['Integrations'];
const access = { access: 'realms.manage', target: 'realm_uid' } as const;
const path = '/customers/:realm_uid/integrations/zendesk';

/** Admin API: a realm's Zendesk settings. */
export function zendeskAdminRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, ZendeskIntegrationModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get(path, {
      config: access,
      schema: {
        tags, summary: 'Show a realm\'s Zendesk integration',
        description: 'The subdomain and key id; the shared secret is never shown. 404 when the realm has none.',
        params: RealmUidParam, response: { 200: ref(ZendeskIntegrationModel), ...failures(401, 403, 404) },
      },
    }, async (request) => getZendeskIntegration(acting(ctx, request), request.realm));

    app.put(path, {
      config: access,
      schema: {
        tags, summary: 'Set up or change a realm\'s Zendesk integration',
        description: 'The first time, `subdomain`, `key_id` and `shared_secret` are required; afterwards the change is partial '
          + '(left out, the stored shared secret is kept). The secret is stored encrypted and never answered. Answers 200 with '
          + 'the integration either way.',
        params: RealmUidParam, body: ZendeskIntegrationInput,
        response: { 200: ref(ZendeskIntegrationModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => putZendeskIntegration(acting(ctx, request), request.realm, request.body));

    app.delete(path, {
      config: access,
      schema: {
        tags, summary: 'Remove a realm\'s Zendesk integration',
        description: 'The stored secret is deleted; the customers API\'s Zendesk operations answer 404 afterwards.',
        params: RealmUidParam, response: { 204: NoContent, ...failures(401, 403, 404) },
      },
    }, async (request, reply) => {
      await deleteZendeskIntegration(acting(ctx, request), request.realm);
      return reply.code(204).send(null);
    });
  };
}

const notConfigured = {
  404: Type.Union([ref(RealmNotFound), ref(ErrorBody)], {
    description: 'Unknown or inactive realm (`{}`), or a realm without a Zendesk integration (`errors`)',
  }),
};

const JWT_CLAIMS = 'Claims: `external_id` (the user\'s uuid), `name`, `email`, `email_verified` (whether the user\'s address was '
  + 'proven: an activation link, a code, a reset link, an invitation, an admin, an identity provider), `scope: "user"`, `iat`, `exp` (five minutes later), `jti` (random); header `kid` is the integration\'s key id.';

/** Customers API: help-desk sign-in for the signed-in user (spec 4.3 rule 5: an integration must be set up first). */
export function zendeskCustomerRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, ZendeskTokenModel, ZendeskSsoUrlModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/realms/:realm_uid/integrations/zendesk_token', {
      schema: {
        tags, summary: 'A Zendesk JWT for the signed-in user',
        description: `Signed HS256 with the realm's Zendesk shared secret, for Zendesk's JWT single sign-on or messaging authentication. ${JWT_CLAIMS}`,
        params: RealmUidParam, response: { 200: ref(ZendeskTokenModel), ...credentialFailures(), ...notConfigured },
      },
    }, async (request) => zendeskToken(ctx, customerOf(request)));

    app.get('/realms/:realm_uid/integrations/zendesk_sso_url', {
      schema: {
        tags, summary: 'The Zendesk single sign-on address for the signed-in user',
        description: `Zendesk's JWT sign-in address carrying a fresh token (valid five minutes). ${JWT_CLAIMS}`,
        params: RealmUidParam, response: { 200: ref(ZendeskSsoUrlModel), ...credentialFailures(), ...notConfigured },
      },
    }, async (request) => zendeskSsoUrl(ctx, customerOf(request)));
  };
}
