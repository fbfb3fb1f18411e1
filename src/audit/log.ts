import { and, desc, eq, gte, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { Db } from '../db/connect.js';
import { totalCount, totalOf, type Page } from '../db/paging.js';
import { admins } from '../tables/admin-auth.js';
import type { ActingContext, AdminPrincipal } from '../admin-auth/principal.js';
import { momentOf } from '../shared/dates.js';
import { auditLogs } from '../tables/audit.js';
import { realms } from '../tables/realms.js';
import type { AuditLogQuery, AuditLogModel } from './schema.js';

/** Who acted, as the audit log keeps it. */
export interface Actor {
  adminId: number | null;
  credentialKind: 'session' | 'token' | null;
  applicationId: number | null;
}

export const actorOf = (principal: AdminPrincipal): Actor => ({
  adminId: principal.adminId,
  credentialKind: principal.sessionId !== null ? 'session' : 'token',
  applicationId: principal.applicationId,
});

export const NO_ONE: Actor = { adminId: null, credentialKind: null, applicationId: null };

export interface AuditEntry {
  actor: Actor;
  /** Kept beside the id as it is now (a failed sign-in keeps the identifier tried); by default the member's email. */
  email?: string;
  operation: string;
  resourceType?: string | null;
  resourceId?: string | null;
  /** The resource's name as the write answered it; when none, the one recorded last for the same resource (a deletion). */
  resourceLabel?: string | null;
  /** The uid of the realm the write was in; its name is recorded as it is then. */
  realmUid?: string | null;
  address: string | null;
  /** Attribute names only, never values. */
  changed?: string[];
  statusCode: number;
}

/** Writes one record with `db`: the transaction of the write it records, when there is one. */
export async function recordAudit(db: Db, now: Date, entry: AuditEntry): Promise<void> {
  const { actor } = entry;
  const email: SQL | string | null = entry.email
    ?? (actor.adminId === null ? null : sql`(select ${admins.email} from ${admins} where ${admins.id} = ${actor.adminId})`);
  const realmUid = entry.realmUid ?? null;
  await db.insert(auditLogs).values({
    at: now,
    adminId: actor.adminId,
    adminEmail: email,
    credentialKind: actor.credentialKind,
    applicationId: actor.applicationId,
    operation: entry.operation,
    resourceType: entry.resourceType ?? null,
    resourceId: entry.resourceId ?? null,
    resourceLabel: entry.resourceLabel ?? earlierLabel(db, entry.resourceType, entry.resourceId),
    realmUid,
    realmName: realmUid === null ? null : sql`(select ${realms.name} from ${realms} where ${realms.uid} = ${realmUid})`,
    address: entry.address,
    changed: entry.changed ?? [],
    statusCode: entry.statusCode,
  });
}

/** The label the log recorded last for this resource (a deletion answers nothing to name it by). */
function earlierLabel(db: Db, type?: string | null, id?: string | null): SQL | null {
  if (!type || !id) return null;
  return sql`(${db.select({ label: auditLogs.resourceLabel }).from(auditLogs)
    .where(and(eq(auditLogs.resourceType, type), eq(auditLogs.resourceId, id), isNotNull(auditLogs.resourceLabel)))
    .orderBy(desc(auditLogs.id)).limit(1)})`;
}

type AuditLogBody = Static<typeof AuditLogModel>;

/**
 * Resources whose label is a realm user's name or email: shown only to a reader holding `realm.users.read` on the realm
 * (DESIGN.md "Personal data"; admin-auth/personal-data.ts, which imports this folder, names the same permission).
 */
const PERSONAL_RESOURCES = new Set(['users']);

function shownLabel(reader: AdminPrincipal, row: typeof auditLogs.$inferSelect): string | null {
  const personal = row.resourceType !== null && PERSONAL_RESOURCES.has(row.resourceType) && row.realmUid !== null;
  return personal && !reader.holdsOn('realm.users.read', row.realmUid!) ? null : row.resourceLabel;
}

function auditLogBody(row: typeof auditLogs.$inferSelect, reader: AdminPrincipal): AuditLogBody {
  return {
    id: row.id,
    at: row.at.toISOString(),
    member_id: row.adminId,
    member_email: row.adminEmail,
    credential: row.credentialKind as AuditLogBody['credential'],
    application_id: row.applicationId,
    operation: row.operation,
    resource_type: row.resourceType,
    resource_id: row.resourceId,
    resource_label: shownLabel(reader, row),
    realm: row.realmUid === null ? null : { uid: row.realmUid, name: row.realmName },
    address: row.address,
    changed: row.changed,
    status_code: row.statusCode,
  };
}

/** The log, newest first, filtered by member, realm, resource and period [from, to). */
export async function listAuditLogs(ctx: ActingContext, page: Page, query: Static<typeof AuditLogQuery>) {
  ctx.actor.assertHolds('audit.read');
  const from = momentOf('from', query.from);
  const to = momentOf('to', query.to);
  const where = and(
    query.member_id !== undefined ? eq(auditLogs.adminId, query.member_id) : undefined,
    query.realm_uid !== undefined ? eq(auditLogs.realmUid, query.realm_uid) : undefined,
    query.resource_type !== undefined ? eq(auditLogs.resourceType, query.resource_type) : undefined,
    query.resource_id !== undefined ? eq(auditLogs.resourceId, query.resource_id) : undefined,
    from ? gte(auditLogs.at, from) : undefined,
    to ? lt(auditLogs.at, to) : undefined,
  );
  const rows = await ctx.db.select({ row: auditLogs, total: totalCount }).from(auditLogs).where(where)
    .orderBy(desc(auditLogs.at), desc(auditLogs.id)).limit(page.perPage).offset(page.offset);
  const total = await totalOf(rows, page, ctx.db, auditLogs, where);
  return { items: rows.map((r) => auditLogBody(r.row, ctx.actor)), total };
}
