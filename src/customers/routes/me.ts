import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../context.js';
import { ref, useModels } from '../../http/models.js';
import { failures } from '../../http/responses.js';
import { AvatarModel } from '../../realms/schema.js';
import { customerOf } from '../credential.js';
import { getMe, updateMe } from '../me.js';
import { credentialFailures, DelegatedTokenModel, GrantExpiredError, MeInput, MeModel, RealmNotFound, UserSessionError } from '../schema.js';

const tags = ['Profile'];
const Params = Type.Object({ realm_uid: Type.String({ description: 'The realm\'s uid' }) });

/** The models every customers API operation may answer with. */
export const CUSTOMER_MODELS = [UserSessionError, GrantExpiredError, RealmNotFound];

export function meRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, AvatarModel, DelegatedTokenModel, MeModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/realms/:realm_uid/me', {
      schema: {
        tags, summary: 'The signed-in user',
        description: 'The user behind the credential, with the custom fields visible to users. `delegated_token` is the identity '
          + 'provider\'s access token when the realm shows delegation information and the user signed in through the provider; null otherwise.',
        params: Params, response: { 200: ref(MeModel), ...credentialFailures() },
      },
    }, (request) => getMe(ctx, customerOf(request)));

    app.put('/realms/:realm_uid/me', {
      schema: {
        tags, summary: 'Change the signed-in user\'s profile',
        description: 'Names, username, email and custom field values. Custom fields not both visible and editable by users are '
          + 'dropped silently (the answer is still 200, the other attributes are saved, those fields keep their value). Invalid '
          + 'values of the other attributes answer 422 naming each. Read-only attributes of GET /me may be sent back and are ignored. '
          + 'An email different from the current one is checked (422 when invalid or taken) but not changed at once: a one-time link valid 24 hours is mailed to the new address and a notice to the current one; the change is made when the link is used (realm page email_change/{token}), so the answer, and GET /me until then, show the current email. At most 5 such requests a user an hour (429 past them, nothing written).',
        params: Params, body: MeInput, response: { 200: ref(MeModel), ...credentialFailures(), ...failures(422, 429) },
      },
    }, async (request) => updateMe(ctx, customerOf(request), request.body));
  };
}
