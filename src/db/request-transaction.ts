import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './connect.js';

/**
 * One database transaction held open across a whole request (an admin write and its audit record):
 * while it is open, the context's `db` is this transaction for every piece of code running on the
 * request's behalf, so an operation's own `ctx.db.transaction(...)` becomes a savepoint inside it.
 * Work the request leaves behind (files to remove, changes to tell other processes about) waits for
 * the commit with `afterCommit`, and is dropped by a rollback.
 */
export class RequestTransaction {
  private tx: Db | null = null;
  private release!: (commit: boolean) => void;
  private ended!: Promise<unknown>;
  private readonly committed: (() => Promise<void> | void)[] = [];

  private constructor(private readonly log: FastifyBaseLogger) {}

  /** Begins the transaction (it holds one connection of the pool until `finish`). */
  static async begin(db: Db, log: FastifyBaseLogger): Promise<RequestTransaction> {
    const scope = new RequestTransaction(log);
    const outcome = new Promise<boolean>((resolve) => { scope.release = resolve; });
    await new Promise<void>((started, failed) => {
      scope.ended = db.transaction(async (tx) => {
        scope.tx = tx;
        started();
        if (!await outcome) throw ROLLBACK;
      });
      scope.ended.catch(failed);
    });
    return scope;
  }

  /** The transaction while it is open; null once finished (work that outlives the request uses the pool). */
  get db(): Db | null {
    return this.tx;
  }

  get open(): boolean {
    return this.tx !== null;
  }

  /** Commits (or rolls back), then runs what waited for the commit. A failed commit throws. */
  async finish(commit: boolean): Promise<void> {
    if (!this.tx) return;
    this.tx = null;
    stopRunning(this);
    this.release(commit);
    try {
      await this.ended;
    } catch (err) {
      if (err !== ROLLBACK) throw err;
      return;
    }
    if (!commit) return;
    for (const task of this.committed.splice(0)) {
      try {
        await requestTransactions.exit(task);
      } catch (err) {
        this.log.warn({ reason: (err as Error).message }, 'a task after a commit failed');
      }
    }
  }

  defer(task: () => Promise<void> | void): void {
    this.committed.push(task);
  }
}

const ROLLBACK = new Error('request transaction rolled back');

const requestTransactions = new AsyncLocalStorage<RequestTransaction>();

/**
 * Node 20's async context costs every promise of the process a hook while a storage is enabled, reads included:
 * it is enabled while a request transaction is open, and disabled once none is (a read then finds no transaction,
 * which is right, since none is open).
 */
const running = new Set<RequestTransaction>();

function stopRunning(scope: RequestTransaction): void {
  if (running.delete(scope) && running.size === 0) requestTransactions.disable();
}

/** Runs `fn` (and everything it starts) inside the request's transaction. */
export function runInTransaction(scope: RequestTransaction, fn: () => void): void {
  if (!scope.open) return fn();
  running.add(scope);
  requestTransactions.run(scope, fn);
}

/** The open transaction of the request this code runs for, if any. */
export function requestTransaction(): Db | null {
  return requestTransactions.getStore()?.db ?? null;
}

/**
 * Runs `task` once the request's transaction has committed (never, if it rolls back), outside it;
 * at once when no request transaction is open.
 */
export async function afterCommit(task: () => Promise<void> | void): Promise<void> {
  const scope = requestTransactions.getStore();
  if (scope?.open) scope.defer(task);
  else await task();
}
