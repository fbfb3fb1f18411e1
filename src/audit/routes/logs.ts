import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { acting } from '../../http/acting.js';
import { ref, useModels } from '../../http/models.js';
import { listOf, metaOf, pageOf } from '../../http/pagination.js';
import { failures } from '../../http/responses.js';
import { listAuditLogs } from '../log.js';
import { AuditLogModel, AuditLogQuery } from '../schema.js';

export function auditLogRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, AuditLogModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/logs', {
      config: { access: 'audit.read' },
      schema: {
        tags: ['Audit log'], summary: 'The audit log',
        description: 'Every admin write (who: the member, its credential and the token\'s application; what: the operation, the '
          + 'resource and the names of the attributes sent, never their values; when; from which address; the status), written in '
          + 'the transaction of the write, so a write that failed has no record. Also sign-ins, failed sign-ins (with the email '
          + 'tried), lockouts and sign-outs. Newest first. Filters combine: `member_id`, `realm_uid`, `resource_type`, `resource_id` and the '
          + 'period [`from`, `to`). A malformed filter answers 422.',
        querystring: AuditLogQuery,
        response: { 200: listOf('logs', ref(AuditLogModel)), ...failures(401, 403, 422) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listAuditLogs(acting(ctx, request), page, request.query);
      return { logs: items, meta: metaOf(total, page) };
    });
  };
}
