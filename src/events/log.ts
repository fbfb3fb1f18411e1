import { and, asc, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { totalCount, totalOf, type Page } from '../db/paging.js';
import { prepared } from '../db/prepared.js';
import { sortKeyOf } from '../db/sorting.js';
import { invalidField } from '../http/errors.js';
import type { Customer } from '../realms/credential.js';
import type { Realm } from '../realms/realms.js';
import { realmUsers } from '../realms/tables.js';
import { eventDescription, eventTitle, type Locale } from './catalog.js';
import type { BusinessEvent } from './events.js';
import type { AdminEventModel, RealmEventQuery, UserEventModel, UserEventQuery } from './schema.js';
import { businessEvents as e } from './tables.js';

export type UserEventBody = Static<typeof UserEventModel>;
export type AdminEventBody = Static<typeof AdminEventModel>;

/** Each sort of a user's log; ties (and the `type` sort within a type) go newest first, by id last. */
const USER_ORDER = {
  created_at: { asc: [asc(e.createdAt), asc(e.id)], desc: [desc(e.createdAt), desc(e.id)] },
  type: { asc: [asc(e.type), desc(e.createdAt), desc(e.id)], desc: [desc(e.type), desc(e.createdAt), desc(e.id)] },
};

const ofUser = (userId: SQL | number, everything: SQL | boolean) =>
  and(eq(e.userId, userId as number), sql`(${everything}::boolean or ${e.impersonated} = false)`);

/**
 * One page of a user's log and its total in one query, read from the user index alone (its key holds
 * the order and every column shown). Prepared once per sort: this is the customers API's hot path.
 */
const userPage = (db: Db, key: keyof typeof USER_ORDER, direction: 'asc' | 'desc') => prepared(db, `user_events_${key}_${direction}`, (d, name) => d
  .select({ type: e.type, createdAt: e.createdAt, total: totalCount })
  .from(e)
  .where(ofUser(sql`${sql.placeholder('user')}`, sql`${sql.placeholder('everything')}`))
  .orderBy(...USER_ORDER[key][direction])
  .limit(sql.placeholder('limit'))
  .offset(sql.placeholder('offset'))
  .prepare(name));

/** Spec 4.3 rules 2-3 and 2.8: the signed-in user's business events, titled in the locale asked for. */
export async function listUserEvents(ctx: Context, customer: Customer, page: Page, query: Static<typeof UserEventQuery>, locale: Locale) {
  const key = sortKeyOf(USER_ORDER, query.sort_by, 'created_at');
  const direction = query.order?.toLowerCase() === 'asc' ? 'asc' : 'desc';
  const everything = query.not_impersonated === undefined;
  const rows = await userPage(ctx.db, key, direction).execute({ user: customer.user.id, everything, limit: page.perPage, offset: page.offset });
  const total = await totalOf(rows, page, ctx.db, e, ofUser(customer.user.id, everything));
  const description = eventDescription(customer.realm.name, locale);
  const items: UserEventBody[] = rows.map((r) => ({ title: eventTitle(r.type, locale), description, created_at: r.createdAt.toISOString() }));
  return { items, total };
}

export function adminEventBody(event: BusinessEvent, email: string | null): AdminEventBody {
  return {
    id: event.id,
    type: event.type,
    title: eventTitle(event.type),
    user: event.userId === null ? null : { id: event.userId, email: email ?? '' },
    impersonated: event.impersonated,
    impersonator_id: event.impersonatorId,
    properties: event.properties,
    created_at: event.createdAt.toISOString(),
  };
}

/** A date-time the schema let through that is still no moment (a leap second, 23:59:60). */
function momentOf(field: string, text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const moment = new Date(text);
  if (Number.isNaN(moment.getTime())) throw invalidField(field, 'is not a valid date-time');
  return moment;
}

/** The admin's view of a realm's log, newest first, filtered by type, user and period. */
export async function listRealmEvents(ctx: Context, realm: Realm, page: Page, query: Static<typeof RealmEventQuery>) {
  const from = momentOf('from', query.from);
  const to = momentOf('to', query.to);
  const where = and(
    eq(e.realmId, realm.id),
    query.type !== undefined ? eq(e.type, query.type) : undefined,
    query.user_id !== undefined ? eq(e.userId, query.user_id) : undefined,
    from ? gte(e.createdAt, from) : undefined,
    to ? lt(e.createdAt, to) : undefined,
  );
  const rows = await ctx.db.select({ event: e, email: realmUsers.email, total: totalCount })
    .from(e).leftJoin(realmUsers, eq(realmUsers.id, e.userId)).where(where)
    .orderBy(desc(e.createdAt), desc(e.id)).limit(page.perPage).offset(page.offset);
  const total = await totalOf(rows, page, ctx.db, e, where);
  return { items: rows.map((r) => adminEventBody(r.event, r.email)), total };
}
