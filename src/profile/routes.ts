import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../context.js';
import { ref, useModels } from '../http/models.js';
import { customerOf } from '../customers/credential.js';
import { getMe } from '../customers/me.js';
import { credentialFailures, DelegatedTokenModel, MeModel } from '../customers/schema.js';
import { AvatarModel } from '../realms/schema.js';

export function profileRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, AvatarModel, DelegatedTokenModel, MeModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/me', {
      schema: {
        tags: ['Profile'], summary: 'The signed-in user',
        description: 'The same answer as the customers API\'s GET /realms/{realm_uid}/me. A bearer token names its realm; with '
          + 'the realm session cookie instead, `realm_uid` names the realm (it may be left out when the browser holds the session '
          + 'cookie of one realm only). The credential failures are the customers API\'s.',
        querystring: Type.Object({ realm_uid: Type.Optional(Type.String({ description: 'The realm, when signing in with its session cookie' })) }),
        response: { 200: ref(MeModel), ...credentialFailures() },
      },
    }, async (request) => getMe(ctx, customerOf(request)));
  };
}
