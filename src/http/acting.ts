import type { FastifyRequest } from 'fastify';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import { unauthorized } from '../errors/index.js';

/**
 * The context an admin route hands its operation: who acts is part of it, the principal the admin guard
 * (admin-auth/guard.ts) set on the request. Shared, so that a module admin-auth itself depends on (the
 * audit log) can hand over the actor without a folder cycle; admin-auth's guard exports it as well.
 */
export function acting(ctx: Context, request: FastifyRequest): ActingContext {
  if (!request.admin) throw unauthorized();
  return { ...ctx, actor: request.admin };
}
