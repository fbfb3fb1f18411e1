import { and, asc, eq, gt, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { ActingContext } from '../admin-auth/principal.js';
import { sqlMoment } from '../db/columns.js';
import { totalCount, totalOf, type Page } from '../db/paging.js';
import { forbidden, invalidField, locked, notFound } from '../errors/index.js';
import { memberName } from '../admin-auth/member-name.js';
import { editLocks } from '../tables/locks.js';
import { lockableOf, type Lockable, type Lockables } from './lockables.js';

/** How long a lock lives without a heartbeat or a save. */
export const LEASE_MINUTES = 5;
const LEASE_MS = LEASE_MINUTES * 60_000;

export type EditLock = typeof editLocks.$inferSelect;

export interface LockBody {
  id: number;
  resource_type: string;
  resource_id: string;
  scope: string;
  holder: { id: number; name: string };
  acquired_at: string;
  expires_at: string;
}

export function lockBody(lock: EditLock): LockBody {
  return {
    id: lock.id, resource_type: lock.resourceType, resource_id: lock.resourceId, scope: lock.scope,
    holder: { id: lock.holderId, name: lock.holderName }, acquired_at: lock.acquiredAt.toISOString(), expires_at: lock.expiresAt.toISOString(),
  };
}

const lockedBy = (lock: EditLock) => locked(lock.holderName, lock.acquiredAt);
const leaseFrom = (now: Date) => new Date(now.getTime() + LEASE_MS);

/** The acting member's name as a lock shows it. */
const nameOf = async (ctx: ActingContext): Promise<string> => (await memberName(ctx, ctx.actor.adminId)) ?? 'System';

function lockableNamed(lockables: Lockables, type: string): Lockable {
  const lockable = lockableOf(lockables, type);
  if (!lockable) throw invalidField('resource_type', `is not a kind of item that can be locked (${Object.keys(lockables).sort().join(', ')})`);
  return lockable;
}

/** An item the actor may write; 404 when it does not exist or is out of the actor's sight, 403 when the actor only sees it. */
async function writableItem(ctx: ActingContext, lockable: Lockable, id: string): Promise<{ id: string; scope: string }> {
  const item = await lockable.find(ctx, id);
  if (!item || !ctx.actor.holdsOn(lockable.read, item.scope)) throw notFound('Item');
  if (!ctx.actor.holdsOn(lockable.write, item.scope)) throw forbidden();
  return item;
}

export interface AcquireInput {
  resource_type: string;
  resource_id: string;
  take_over?: boolean;
}

/**
 * Takes the lock on an item in one statement: a new row, or the row of an expired lock or of one the
 * actor already holds (renewed), or, with `take_over` and the permission for it, anyone's. Under
 * concurrent requests the unique key makes them take turns on the row, so exactly one wins; the
 * others find it live and answer 409 naming the holder.
 */
export async function acquireLock(ctx: ActingContext, lockables: Lockables, input: AcquireInput): Promise<LockBody> {
  const lockable = lockableNamed(lockables, input.resource_type);
  const { id, scope } = await writableItem(ctx, lockable, input.resource_id);
  const mayTakeOver = ctx.actor.holdsOn(lockable.takeOver, scope);
  const me = ctx.actor.adminId;
  const name = await nameOf(ctx);
  const now = ctx.clock.now();
  const at = sqlMoment(now);
  // In ON CONFLICT DO UPDATE, edit_locks.* is the row found, before the change.
  const live = sql`edit_locks.expires_at > ${at}`;
  const someoneElses = sql`(${live} AND edit_locks.holder_id <> ${me})`;
  const takeOver = input.take_over === true && mayTakeOver;
  for (let attempt = 0; attempt < 3; attempt++) {
    const [row] = await ctx.db.insert(editLocks).values({
      resourceType: input.resource_type, resourceId: id, scope, holderId: me, holderName: name, acquiredAt: now, expiresAt: leaseFrom(now),
    }).onConflictDoUpdate({
      target: [editLocks.resourceType, editLocks.resourceId],
      set: {
        scope, holderId: me, holderName: name, expiresAt: leaseFrom(now),
        acquiredAt: sql`CASE WHEN ${live} AND edit_locks.holder_id = ${me} THEN edit_locks.acquired_at ELSE ${at} END`,
        takenFromId: sql`CASE WHEN ${someoneElses} THEN edit_locks.holder_id END`,
        takenByName: sql`CASE WHEN ${someoneElses} THEN ${name}::text END`,
      },
      where: takeOver ? undefined : sql`NOT ${someoneElses}`,
    }).returning();
    if (row) return lockBody(row);
    const [holder] = await ctx.db.select().from(editLocks)
      .where(and(eq(editLocks.resourceType, input.resource_type), eq(editLocks.resourceId, id), gt(editLocks.expiresAt, now)));
    // Released or expired between the two statements: try again.
    if (!holder) continue;
    if (input.take_over === true) throw forbidden(`Your role does not allow taking over the lock ${holder.holderName} holds`);
    throw lockedBy(holder);
  }
  // Only if the lock was released three times over between the two statements.
  throw notFound('Lock');
}

/** A lock by id that the actor may see; 404 otherwise. */
async function visibleLock(ctx: ActingContext, lockables: Lockables, id: number, forUpdate: boolean): Promise<{ lock: EditLock; lockable: Lockable }> {
  const query = ctx.db.select().from(editLocks).where(eq(editLocks.id, id));
  const [lock] = forUpdate ? await query.for('update') : await query;
  const lockable = lock && lockableOf(lockables, lock.resourceType);
  if (!lock || !lockable || !ctx.actor.holdsOn(lockable.read, lock.scope)) throw notFound('Lock');
  return { lock, lockable };
}

/**
 * The heartbeat: the holder's lock lives five more minutes. A lock someone else holds now (taken over,
 * or taken after it expired) is 409 naming them: that is how the previous holder learns it.
 */
export async function renewLock(ctx: ActingContext, lockables: Lockables, id: number): Promise<LockBody> {
  const now = ctx.clock.now();
  const [renewed] = await ctx.db.update(editLocks).set({ expiresAt: leaseFrom(now) })
    .where(and(eq(editLocks.id, id), eq(editLocks.holderId, ctx.actor.adminId))).returning();
  if (renewed) return lockBody(renewed);
  const { lock } = await visibleLock(ctx, lockables, id, false);
  throw lockedBy(lock);
}

/** Ends a lock: its holder's, or anyone's by a member who may take it over. */
export async function releaseLock(ctx: ActingContext, lockables: Lockables, id: number): Promise<void> {
  const { lock, lockable } = await visibleLock(ctx, lockables, id, true);
  if (lock.holderId !== ctx.actor.adminId && !ctx.actor.holdsOn(lockable.takeOver, lock.scope)) {
    throw forbidden(`The lock is ${lock.holderName}'s: only they, or a role that may take it over, release it`);
  }
  await ctx.db.delete(editLocks).where(eq(editLocks.id, lock.id));
}

export interface LockListQuery {
  resource_type?: string;
  resource_id?: string;
  scope?: string;
}

/** The live locks of the scopes the actor may read, the oldest first. */
export async function listLocks(ctx: ActingContext, lockables: Lockables, page: Page, query: LockListQuery): Promise<{ items: LockBody[]; total: number }> {
  const visible: SQL[] = [];
  for (const [type, lockable] of Object.entries(lockables)) {
    const scopes = ctx.actor.targetsOf(lockable.read);
    if (scopes === null) visible.push(eq(editLocks.resourceType, type));
    else if (scopes.length) visible.push(and(eq(editLocks.resourceType, type), inArray(editLocks.scope, scopes))!);
  }
  if (!visible.length) return { items: [], total: 0 };
  const where = and(
    gt(editLocks.expiresAt, ctx.clock.now()),
    or(...visible),
    query.resource_type !== undefined ? eq(editLocks.resourceType, query.resource_type) : undefined,
    query.resource_id !== undefined ? eq(editLocks.resourceId, query.resource_id) : undefined,
    query.scope !== undefined ? eq(editLocks.scope, query.scope) : undefined,
  );
  const rows = await ctx.db.select({ lock: editLocks, total: totalCount }).from(editLocks).where(where)
    .orderBy(asc(editLocks.acquiredAt), asc(editLocks.id)).limit(page.perPage).offset(page.offset);
  return { items: rows.map((row) => lockBody(row.lock)), total: await totalOf(rows, page, ctx.db, editLocks, where) };
}

/**
 * For the write transaction of any change to a lockable item: a live lock someone else holds refuses
 * the write (409 naming them) unless `override` is set by a member who may take it over, who then
 * holds it, so the previous holder learns it on their next heartbeat. The writer's own lock is
 * renewed (a save is a heartbeat). Without a live lock the write goes ahead.
 */
export async function assertUnlocked(ctx: ActingContext, lockables: Lockables, resource: { type: string; id: string }, override: boolean): Promise<void> {
  const now = ctx.clock.now();
  const [lock] = await ctx.db.select().from(editLocks)
    .where(and(eq(editLocks.resourceType, resource.type), eq(editLocks.resourceId, resource.id))).for('update');
  if (!lock || lock.expiresAt <= now) return;
  const me = ctx.actor.adminId;
  if (lock.holderId === me) {
    await ctx.db.update(editLocks).set({ expiresAt: leaseFrom(now) }).where(eq(editLocks.id, lock.id));
    return;
  }
  if (!override) throw lockedBy(lock);
  const lockable = lockableOf(lockables, lock.resourceType);
  if (!lockable || !ctx.actor.holdsOn(lockable.takeOver, lock.scope)) {
    throw forbidden(`Your role does not allow overriding the lock ${lock.holderName} holds`);
  }
  const name = await nameOf(ctx);
  await ctx.db.update(editLocks).set({
    holderId: me, holderName: name, acquiredAt: now, expiresAt: leaseFrom(now), takenFromId: lock.holderId, takenByName: name,
  }).where(eq(editLocks.id, lock.id));
}

/** The item is gone: so are its locks. */
export async function dropLocks(ctx: Pick<ActingContext, 'db'>, resource: { type: string; id: string }): Promise<void> {
  await ctx.db.delete(editLocks).where(and(eq(editLocks.resourceType, resource.type), eq(editLocks.resourceId, resource.id)));
}
