import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { RequestTransaction, runInTransaction } from '../db/request-transaction.js';
import { actorOf, recordAudit } from './log.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `own`: the route records itself in the audit log (signing in and out); every other admin write is recorded for it. */
    audit?: 'own';
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The admin API addresses a realm's users, fields, clients... under `/customers/{realm_uid}`. */
const RESOURCE_NAMES: Record<string, string> = { customers: 'realms' };
const MAX_CHANGED = 50;
const MAX_NAME = 100;

interface OpenWrite {
  transaction: RequestTransaction;
  answer?: unknown;
}

/** How a path parameter names its resource in an answer: `{uuid}` by its uuid, `{..._uid}` by its uid, else by its id. */
const answerKeyOf = (param: string) => (param.endsWith('uuid') ? 'uuid' : param.endsWith('uid') ? 'uid' : 'id');

function createdId(answer: unknown, key: string | undefined): string | null {
  if (!answer || typeof answer !== 'object') return null;
  const body = answer as Record<string, unknown>;
  for (const k of [key ?? 'id', 'id', 'uid', 'uuid']) {
    if (typeof body[k] === 'string' || typeof body[k] === 'number') return String(body[k]);
  }
  return null;
}

/** The keys whose text names a resource in an answer, best first (a user's `name` is empty when no name was given). */
const LABEL_KEYS = ['name', 'title', 'subject', 'email', 'file_name', 'key', 'uid'];

/** The resource's name from the write's answer, when the answer is that resource (its id, uid or uuid is the resource's). */
function labelOf(answer: unknown, id: string | null): string | null {
  if (id === null || !answer || typeof answer !== 'object' || Array.isArray(answer)) return null;
  const body = answer as Record<string, unknown>;
  if (!['id', 'uid', 'uuid'].some((key) => body[key] !== undefined && String(body[key]) === id)) return null;
  const label = LABEL_KEYS.map((key) => body[key]).find((value) => typeof value === 'string' && value.trim() !== '');
  return typeof label === 'string' ? label.trim().slice(0, MAX_NAME * 2) : null;
}

function changedNames(body: unknown): string[] {
  if (!body || typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body)) return [];
  return Object.keys(body).slice(0, MAX_CHANGED).map((name) => name.slice(0, MAX_NAME));
}

/**
 * The audit log of admin writes (every POST, PUT, PATCH and DELETE of the catalog by a signed-in
 * member, except routes whose config says `audit: 'own'`): each runs in one transaction that its
 * operations' `ctx.db` joins (db/request-transaction.ts), opened after the credential guard; the record
 * is written in it and it commits before the answer leaves, or rolls back with nothing recorded when
 * the answer is a failure (4xx, 5xx).
 *
 * The resource: for a creation (201) the collection the route posts to and the new resource's key
 * from the answer (the one its item routes take: id, uid or uuid); otherwise the collection before the
 * path's last parameter and that parameter's value. Its label: the answer's name (or title, email,
 * uid...) when the answer is that resource, else the label recorded last for it; and the realm of
 * a path under `{realm_uid}`, so that the console can say "Changed user Ana Pérez in realm Acme".
 */
export function auditWrites(ctx: Context, prefix: string) {
  return (scope: FastifyInstance): void => {
    const open = new WeakMap<FastifyRequest, OpenWrite>();
    // The parameter that follows each collection in the catalog's paths: `/realms` → `realm_uid`.
    const itemParams = new Map<string, string>();

    scope.addHook('onRoute', (route: RouteOptions) => {
      const match = /^(.*[^/])\/:([^/]+)$/.exec(route.url);
      if (match) itemParams.set(match[1], match[2]);
    });

    scope.addHook('preHandler', (request, _reply, done) => {
      if (!WRITES.has(request.method) || !request.admin || request.routeOptions.config.audit === 'own') {
        done();
        return;
      }
      RequestTransaction.begin(ctx.db, ctx.log).then((transaction) => {
        open.set(request, { transaction });
        runInTransaction(transaction, done);
      }, done);
    });

    // Callback hooks: they run for every answer of the catalog, most of them reads with nothing to do here, and an async
    // hook would cost each a promise and a turn of the microtask queue.
    scope.addHook('preSerialization', (request, _reply, payload, done) => {
      const write = open.get(request);
      if (write) write.answer = payload;
      done(null, payload);
    });

    const finish = async (request: FastifyRequest, reply: FastifyReply, write: OpenWrite, tx: Db) => {
      if (reply.statusCode >= 400) {
        await write.transaction.finish(false);
        return;
      }
      try {
        await recordAudit(tx, ctx.clock.now(), {
          actor: actorOf(request.admin!),
          operation: operationOf(request, prefix),
          ...resourceOf(request, reply.statusCode, write.answer, prefix, itemParams),
          address: request.ip,
          changed: changedNames(request.body),
          statusCode: reply.statusCode,
        });
      } catch (err) {
        await write.transaction.finish(false);
        throw err;
      }
      await write.transaction.finish(true);
    };

    scope.addHook('onSend', (request, reply, payload, done) => {
      const write = open.get(request);
      const tx = write?.transaction.db;
      if (!write || !tx) return done(null, payload);
      finish(request, reply, write, tx).then(() => done(null, payload), done);
    });

    // A reply that never went through onSend (hijacked, or a failure while sending) must not keep its transaction.
    // Not on onRequestAbort: the handler may still be using the transaction, and its answer (sent to no one) still
    // goes through onSend; an error's answer too (onError is followed by it).
    scope.addHook('onResponse', (request, _reply, done) => {
      const write = open.get(request);
      if (!write) return done();
      write.transaction.finish(false).then(() => done(), done);
    });
  };
}

/** The route's operationId, or `METHOD /path/{param}` as the catalog's reference shows it. */
function operationOf(request: FastifyRequest, prefix: string): string {
  const operationId = (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
  if (operationId) return operationId;
  const path = request.routeOptions.url!.slice(prefix.length).replace(/:([^/]+)/g, '{$1}');
  return `${request.method} ${path}`;
}

function resourceOf(request: FastifyRequest, status: number, answer: unknown, prefix: string, itemParams: Map<string, string>) {
  const url = request.routeOptions.url!;
  const segments = url.slice(prefix.length).split('/').filter(Boolean);
  // Parameters come typed by the route's schema: an `{id}` is a number.
  const params = request.params as Record<string, string | number | undefined>;
  let type: string | null = null;
  let id: string | null = null;
  for (let i = segments.length - 1; i > 0; i--) {
    if (segments[i].startsWith(':') && !segments[i - 1].startsWith(':')) {
      type = segments[i - 1];
      const value = params[segments[i].slice(1)];
      id = value === undefined ? null : String(value);
      break;
    }
  }
  const last = segments.at(-1);
  if (status === 201 && last && !last.startsWith(':')) {
    const param = itemParams.get(url);
    const created = createdId(answer, param && answerKeyOf(param));
    if (created !== null) [type, id] = [last, created];
  }
  type ??= last ?? null;
  const realmUid = typeof params.realm_uid === 'string' ? params.realm_uid : null;
  return { resourceType: type && (RESOURCE_NAMES[type] ?? type), resourceId: id, resourceLabel: labelOf(answer, id), realmUid };
}
