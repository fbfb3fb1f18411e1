import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../context.js';
import { PERSONAL_ROUTE_NOTE } from '../../admin-auth/personal-data.js';
import { acting } from '../../admin-auth/guard.js';
import { DateTime, ref, useModels } from '../../http/models.js';
import { failures } from '../../http/responses.js';
import { RealmUserParams } from '../../realms/schema.js';
import { createImpersonationLink } from '../links.js';

const ImpersonationLinkModel = Type.Object({
  url: Type.String({ format: 'uri', description: '{BASE_URL}/realms/{realm_uid}/session/access/{token}: opens a session as the user, once' }),
  expires_at: DateTime,
}, { $id: 'ImpersonationLink', description: 'A one-time sign-in link, valid two minutes' });

export function impersonationRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, ImpersonationLinkModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/customers/:realm_uid/users/:id/impersonate', {
      config: { access: 'realm.users.impersonate', target: 'realm_uid', personal: true },
      schema: {
        tags: ['Realm users'], summary: 'Make a one-time link that signs in as a user',
        description: 'Answers a link valid two minutes and usable once: opened in a browser, it starts a realm session as the '
          + 'user, flagged as impersonated by the calling admin (every event recorded in it carries the admin), and goes to the '
          + 'realm\'s profile page, which shows who is impersonating. An inactive user or realm answers 422.' + PERSONAL_ROUTE_NOTE,
        params: RealmUserParams, response: { 200: ref(ImpersonationLinkModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => createImpersonationLink(acting(ctx, request), request.realm, request.params.id));
  };
}
