import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { acting } from '../../admin-auth/guard.js';
import type { Context } from '../../context.js';
import { ref, useModels } from '../../http/models.js';
import { ListQuery } from '../../http/list-query.js';
import { listOf, metaOf, pageOf } from '../../http/pagination.js';
import { failures, NoContent } from '../../http/responses.js';
import { CLIENT_SORTABLE, createClient, deleteClient, getClient, listClients, regenerateSecret, updateClient } from '../clients.js';
import { realmAddresses } from '../addresses.js';
import { ClientParams, OAuthClientInput, OAuthClientModel, RealmAddressesModel, RealmParam, SigningKeyModel } from '../schema.js';
import { rotateSigningKey } from '../signing-keys.js';

const tags = ['OAuth clients'];
const read = { access: 'realms.read', target: 'realm_uid' } as const;
const write = { access: 'realms.manage', target: 'realm_uid' } as const;

/** Admin API: the OAuth 2.0 clients of a realm. */
export function oauthClientRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, OAuthClientModel, RealmAddressesModel, SigningKeyModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/customers/:realm_uid/oauth_clients', {
      config: read,
      schema: {
        tags, summary: 'List the OAuth clients of a realm', params: RealmParam,
        querystring: ListQuery({ searched: 'the name or client_id (uid)', sortable: CLIENT_SORTABLE, by: 'id', order: 'asc' }),
        response: { 200: listOf('oauth_clients', ref(OAuthClientModel)), ...failures(401, 403, 404) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listClients(acting(ctx, request), request.realm, page, request.query);
      return { oauth_clients: items, meta: metaOf(total, page) };
    });

    app.get('/customers/:realm_uid/addresses', {
      config: read,
      schema: {
        tags, summary: 'Show the addresses apps and identity providers are configured with',
        description: 'The realm\'s pages, its OAuth 2.0 endpoints and metadata, and the redirect URIs of delegated sign-in.',
        params: RealmParam, response: { 200: ref(RealmAddressesModel), ...failures(401, 403, 404) },
      },
    }, async (request) => realmAddresses(acting(ctx, request), request.realm));

    app.post('/customers/:realm_uid/signing_keys/rotate', {
      config: write,
      schema: {
        tags, summary: 'Rotate the realm\'s ID token signing key',
        description: 'OpenID Connect: a new key signs the ID tokens from now on. The previous one stays in the realm\'s JWKS for '
          + 'an hour (an ID token\'s lifetime), so tokens it signed still verify until they expire.',
        params: RealmParam, response: { 200: ref(SigningKeyModel), ...failures(401, 403, 404) },
      },
    }, async (request) => rotateSigningKey(acting(ctx, request), request.realm));

    app.get('/customers/:realm_uid/oauth_clients/:id', {
      config: read,
      schema: { tags, summary: 'Show an OAuth client', params: ClientParams, response: { 200: ref(OAuthClientModel), ...failures(401, 403, 404) } },
    }, async (request) => getClient(acting(ctx, request), request.realm, request.params.id));

    app.post('/customers/:realm_uid/oauth_clients', {
      config: write,
      schema: {
        tags, summary: 'Create an OAuth client',
        description: 'Answers the client with its `uid` (client_id) and `secret` (client_secret); the secret is shown only here.',
        params: RealmParam, body: OAuthClientInput, response: { 201: ref(OAuthClientModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request, reply) => reply.code(201).send(await createClient(acting(ctx, request), request.realm, request.body)));

    app.put('/customers/:realm_uid/oauth_clients/:id', {
      config: write,
      schema: {
        tags, summary: 'Change an OAuth client', description: 'Partial: attributes left out keep their value.',
        params: ClientParams, body: OAuthClientInput, response: { 200: ref(OAuthClientModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => updateClient(acting(ctx, request), request.realm, request.params.id, request.body));

    app.post('/customers/:realm_uid/oauth_clients/:id/regenerate_secret', {
      config: write,
      schema: {
        tags, summary: 'Regenerate an OAuth client\'s secret',
        description: 'Answers the client with a new `secret`, shown only here; the previous secret stops working at once. '
          + 'Access tokens already issued to the client keep working.',
        params: ClientParams, response: { 200: ref(OAuthClientModel), ...failures(401, 403, 404) },
      },
    }, async (request) => regenerateSecret(acting(ctx, request), request.realm, request.params.id));

    app.delete('/customers/:realm_uid/oauth_clients/:id', {
      config: write,
      schema: {
        tags, summary: 'Remove an OAuth client', description: 'Its codes and access tokens stop working.',
        params: ClientParams, response: { 204: NoContent, ...failures(401, 403, 404) },
      },
    }, async (request, reply) => {
      await deleteClient(acting(ctx, request), request.realm, request.params.id);
      return reply.code(204).send(null);
    });
  };
}
