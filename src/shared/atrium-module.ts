import type { FastifyPluginAsync, onRequestHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import type { RoleTargets } from '../admin-auth/role-targets.js';
import type { Context } from '../context.js';
import type { Job } from '../jobs/runner.js';
import type { Lockables } from '../locks/lockables.js';
import type { MailRenderer } from '../mail/queue.js';
import type { Worker } from '../queue/loops.js';
import type { TaskQueue } from '../queue/tasks.js';
import type { UserCleanup } from '../realms/user-cleanups.js';
import type { RealmPageParts } from '../realms/pages/routes.js';
import type { SignUpCode } from '../realms/pages/signup.js';
import type { AdminEventTypes } from '../webhooks/event-types.js';

export type CatalogName = 'admin' | 'content' | 'profile' | 'customers';

/** A worker of the queue loop a module runs; `close` releases what it holds once its loops have stopped. */
export type ModuleWorker = Worker & { close?(): void };

/**
 * What a feature brings to the application (its `module.ts`), read by the app layer: `app.ts` registers its
 * routes, pages and cleanups, `server.ts` runs its jobs, task queues and workers. Builders get the whole list
 * of modules, for a feature that lists what the others declare (webhooks: their event types; realms: the
 * parts of its pages; admin-auth: the role targets).
 */
export interface AtriumModule {
  name: string;
  /** Route plugins per catalog; a catalog registers the modules' plugins in the order of the module list. */
  catalogs?(ctx: Context, modules: readonly AtriumModule[]): Partial<Record<CatalogName, FastifyPluginAsync[]>>;
  /** Plugins outside the catalogs: realm pages, the OAuth endpoints, links followed from mails. */
  pages?(ctx: Context, modules: readonly AtriumModule[]): FastifyPluginAsync[];
  /**
   * Hooks run before routing for every request (a site's custom domain: any path on that host is the
   * site's). Each must pass a request that is not its own at once, synchronously (callback style, see siteDomainHook).
   */
  requestHooks?(ctx: Context): onRequestHookHandler[];
  /**
   * Hooks the admin catalog runs before each handler, once the credential guard has let the request
   * through and its input is valid: loading what a path parameter the feature owns names (realms:
   * `:realm_uid` → `request.realm`). Each must return at once for a route whose path does not name it.
   */
  adminPreHandlers?(ctx: Context): preHandlerAsyncHookHandler[];
  /** Periodic jobs (jobs/runner.ts), each run claimed by one process. */
  jobs?: readonly Job[];
  /** Kinds of queued task (queue/tasks.ts). */
  taskQueues?: readonly TaskQueue<unknown>[];
  /** Workers of their own on the queue loop (campaign sending, webhook deliveries). */
  workers?(ctx: Context): ModuleWorker[];
  /** The webhook event types the feature emits: type → what its `data` holds (GET /webhooks/event_types). */
  webhookEvents?: AdminEventTypes;
  /** What the feature adds to the realm pages, which realms cannot import. */
  realmPages?: Partial<RealmPageParts & { signUpCode: SignUpCode }>;
  /** How to tell that a role's target of the feature exists (a realm, a content space) for team role assignments. */
  roleTargets?: RoleTargets;
  /** The kinds of item the feature's editors lock while editing (locks/lockables.ts), by `resource_type`. */
  lockables?: Lockables;
  /** Writes the queued mails that name a template when they are sent (one module: email-templates); the context carries it. */
  mailRenderer?: MailRenderer;
  /** Rows the feature deletes with a realm's users (realms/user-cleanups.ts). */
  onUsersDeleted?: UserCleanup;
}
