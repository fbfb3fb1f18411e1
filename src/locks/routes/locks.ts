import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { acting } from '../../admin-auth/guard.js';
import { ref, useModels } from '../../http/models.js';
import { listOf, metaOf, pageOf } from '../../http/pagination.js';
import { failures, NoContent } from '../../http/responses.js';
import type { Lockables } from '../lockables.js';
import { acquireLock, LEASE_MINUTES, listLocks, releaseLock, renewLock } from '../locks.js';
import { OVERRIDE_DESCRIPTION } from '../override.js';
import { LockIdParam, LockInput, LockListQuery, LockModel } from '../schema.js';

const tags = ['Locks'];
const PERMISSIONS = 'Content entries: `content.write` takes a lock, `content.publish` takes one over or releases another\'s; site items: '
  + '`site.write` and `site.publish`, on the item\'s site or space.';

// Every role that reaches a site or a space holds content.read; each operation checks the item's own permission on its scope.
const access = 'content.read' as const;

export function lockRoutes(ctx: Context, lockables: Lockables): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, LockModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/locks', {
      config: { access },
      schema: {
        tags, summary: 'List edit locks',
        description: 'The live locks of the sites and spaces the credential may read, the oldest first.',
        querystring: LockListQuery, response: { 200: listOf('locks', ref(LockModel)), ...failures(401, 403) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listLocks(acting(ctx, request), lockables, page, request.query);
      return { locks: items, meta: metaOf(total, page) };
    });

    app.post('/locks', {
      config: { access },
      schema: {
        tags, summary: 'Take an edit lock',
        description: `An editor opening an item takes its lock, which lives ${LEASE_MINUTES} minutes and is renewed by a heartbeat `
          + '(PUT, every minute) and by every save. Taking a lock one already holds renews it. While someone else holds it: 409 '
          + '`ATR_LOCKED` naming them, unless `take_over` is sent by a role that may take it over (403 for another role); the previous '
          + `holder's next heartbeat or save is then 409 naming the new holder. ${PERMISSIONS} ${OVERRIDE_DESCRIPTION}`,
        body: LockInput(Object.keys(lockables).sort()), response: { 201: ref(LockModel), ...failures(401, 403, 404, 409, 422) },
      },
    }, async (request, reply) => reply.code(201).send(await acquireLock(acting(ctx, request), lockables, request.body)));

    app.put('/locks/:id', {
      // Left out of the audit log: a heartbeat a minute per open editor records no change. Taking, taking over and releasing are recorded.
      config: { access, audit: 'own' },
      schema: {
        tags, summary: 'Renew an edit lock (heartbeat)',
        description: `The holder's lock lives ${LEASE_MINUTES} more minutes. A lock someone else holds now (taken over, or taken after it `
          + 'expired) is 409 `ATR_LOCKED` naming them; a released lock is 404. No body.',
        params: LockIdParam, response: { 200: ref(LockModel), ...failures(401, 403, 404, 409) },
      },
    }, async (request) => renewLock(acting(ctx, request), lockables, request.params.id));

    app.delete('/locks/:id', {
      config: { access },
      schema: {
        tags, summary: 'Release an edit lock',
        description: `By its holder (an editor leaving the item), or by a role that may take it over. ${PERMISSIONS}`,
        params: LockIdParam, response: { 204: NoContent, ...failures(401, 403, 404) },
      },
    }, async (request, reply) => {
      await releaseLock(acting(ctx, request), lockables, request.params.id);
      return reply.code(204).send(null);
    });
  };
}
