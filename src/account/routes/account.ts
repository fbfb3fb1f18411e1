import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { acting } from '../../admin-auth/guard.js';
import type { Context } from '../../context.js';
import { ref, useModels } from '../../http/models.js';
import { failures } from '../../http/responses.js';
import { AccountInput, AccountModel } from '../schema.js';
import { accountBody, getAccount, updateAccount } from '../account.js';

const tags = ['Account'];

export function accountRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, AccountModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/account', {
      config: { access: 'account.read' },
      schema: { tags, summary: 'Account settings', response: { 200: ref(AccountModel), ...failures(401, 403) } },
    }, async (request) => accountBody(await getAccount(acting(ctx, request))));

    app.put('/account', {
      config: { access: 'account.manage' },
      schema: {
        tags, summary: 'Change account settings',
        description: 'Name, largest upload in bytes (default 10 MiB), the allowed upload extensions, and whether every team member needs a second factor '
          + '(a member without one is sent to set one up at the next sign-in and reaches nothing else until then). Partial.',
        body: AccountInput, response: { 200: ref(AccountModel), ...failures(401, 403, 422) },
      },
    }, async (request) => accountBody(await updateAccount(acting(ctx, request), request.body)));
  };
}
