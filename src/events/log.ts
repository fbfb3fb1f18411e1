import { and, asc, desc, eq, gte, lt, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { isoText } from '../db/columns.js';
import { countedTotal, type Page } from '../db/paging.js';
import { prepared } from '../db/prepared.js';
import { sortKeyOf } from '../db/sorting.js';
import { momentOf } from '../shared/dates.js';
import { metaOf } from '../http/pagination.js';
import type { Customer } from '../realms/credential.js';
import type { Realm } from '../realms/realms.js';
import { realmUsers } from '../tables/realms.js';
import type { Locale } from '../i18n/locale.js';
import { eventDescription, eventTitle } from '../shared/event-catalog.js';
import type { BusinessEvent } from './events.js';
import type { WebhookEvent } from '../webhooks/outbox.js';
import type { AdminEventModel, RealmEventQuery, UserEventQuery } from './schema.js';
import { businessEventCounts as counts, businessEvents as e } from '../tables/events.js';

export type AdminEventBody = Static<typeof AdminEventModel>;

type Direction = 'asc' | 'desc';
type Term = readonly [AnyColumn, Direction];

/** Each sort of a user's log; ties (and the `type` sort within a type) go newest first, by id last. */
const USER_ORDER: Record<'created_at' | 'type', Record<Direction, Term[]>> = {
  created_at: { asc: [[e.createdAt, 'asc'], [e.id, 'asc']], desc: [[e.createdAt, 'desc'], [e.id, 'desc']] },
  type: { asc: [[e.type, 'asc'], [e.createdAt, 'desc'], [e.id, 'desc']], desc: [[e.type, 'desc'], [e.createdAt, 'desc'], [e.id, 'desc']] },
};

const reversed = (terms: Term[]): Term[] => terms.map(([column, direction]) => [column, direction === 'asc' ? 'desc' : 'asc'] as const);

const ofUser = (userId: SQL | number, everything: SQL | boolean) =>
  and(eq(e.userId, userId as number), sql`(${everything}::boolean or ${e.impersonated} = false)`);

/** The name a prepared statement of one order carries. */
const orderName = (terms: Term[]) => terms.map(([column, direction]) => `${column.name}_${direction}`).join('_');

/**
 * The first `limit` shown events of a user in one order, read from the user index alone (its key holds the order and
 * every column shown), with `extra` columns beside each row.
 */
const inOrder = <Extra extends Record<string, SQL.Aliased | SQL>>(d: Db, terms: Term[], extra: Extra) => d
  .select({ type: e.type, createdAt: isoText(e.createdAt), ...extra })
  .from(e)
  .where(ofUser(sql`${sql.placeholder('user')}`, sql`${sql.placeholder('everything')}`))
  .orderBy(...terms.map(([column, direction]) => (direction === 'asc' ? asc : desc)(column)))
  .limit(sql.placeholder('limit'));

/** A slice of a user's log in one order. Prepared once per order: this is the customers API's hot path. */
const userSlice = (db: Db, terms: Term[]) => prepared(db, `user_events_${orderName(terms)}`, (d, name) => inOrder(d, terms, {})
  .offset(sql.placeholder('offset'))
  .prepare(name));

/** The user's counter, as the first page reads it beside each of its rows (`firstPage`). */
const countColumns = {
  total: sql<number>`(select ${counts.total} from ${counts} where ${counts.userId} = ${sql.placeholder('user')})`.mapWith(Number),
  impersonated: sql<number>`(select ${counts.impersonated} from ${counts} where ${counts.userId} = ${sql.placeholder('user')})`.mapWith(Number),
};

/**
 * The first page of a user's log in one order with the user's counter on each row: one round trip for the page most
 * asked for. A first page is always read from its own end, so it does not need the total first.
 */
const firstPage = (db: Db, terms: Term[]) => prepared(db, `user_events_first_${orderName(terms)}`, (d, name) => inOrder(d, terms, countColumns)
  .prepare(name));

const userCount = (db: Db) => prepared(db, 'user_event_count', (d, name) => d
  .select({ total: counts.total, impersonated: counts.impersonated })
  .from(counts)
  .where(eq(counts.userId, sql`${sql.placeholder('user')}`))
  .prepare(name));

/**
 * Spec 4.3 rules 2-3 and 2.8: the signed-in user's business events, titled in the locale asked for, as the JSON
 * text of the answer. A page holds up to 100 items of three strings, two of them alike on every item, so the text is
 * built from pieces escaped once (the hot path's objects, their dates and the serializer's per-item checks were most
 * of its time): the same text the `UserEvent` schema's serializer makes, which the events tests read.
 * The total is the user's counter (no count of the history); a page past the middle is read from the
 * other end, so that no page reads more than half the history to skip to its rows. (Past the first page, the counter
 * and the page are two statements: an event recorded between them shifts the page by one, as it would between two
 * requests.)
 */
export async function userEventPage(ctx: Context, customer: Customer, page: Page, query: Static<typeof UserEventQuery>, locale: Locale): Promise<string> {
  const key = sortKeyOf(USER_ORDER, query.sort_by, 'created_at');
  const terms = USER_ORDER[key][query.order?.toLowerCase() === 'asc' ? 'asc' : 'desc'];
  const everything = query.not_impersonated === undefined;
  const counted = (count: { total: number; impersonated: number } | undefined) => (count ? count.total - (everything ? 0 : count.impersonated) : 0);
  if (page.offset === 0) {
    // No row: none of the user's events is shown, whatever the counter holds.
    const rows = await firstPage(ctx.db, terms).execute({ user: customer.user.id, everything, limit: page.perPage });
    return pageText(rows, rows.length ? counted(rows[0]) : 0, page, customer, locale);
  }
  const [count] = await userCount(ctx.db).execute({ user: customer.user.id });
  const total = counted(count);
  const limit = Math.min(page.perPage, total - page.offset);
  let rows: { type: string; createdAt: string }[] = [];
  if (limit > 0 && page.offset + limit / 2 > total / 2) {
    rows = (await userSlice(ctx.db, reversed(terms)).execute({ user: customer.user.id, everything, limit, offset: total - page.offset - limit })).reverse();
  } else if (limit > 0) {
    rows = await userSlice(ctx.db, terms).execute({ user: customer.user.id, everything, limit, offset: page.offset });
  }
  return pageText(rows, total, page, customer, locale);
}

function pageText(rows: { type: string; createdAt: string }[], total: number, page: Page, customer: Customer, locale: Locale): string {
  const description = JSON.stringify(eventDescription(customer.realm.name, locale));
  const titles = new Map<string, string>();
  const title = (type: string) => titles.get(type) ?? titles.set(type, JSON.stringify(eventTitle(type, locale))).get(type)!;
  const items = rows.map((r) => `{"title":${title(r.type)},"description":${description},"created_at":"${r.createdAt}"}`);
  return `{"events":[${items.join(',')}],"meta":${JSON.stringify(metaOf(total, page))}}`;
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

/** The webhook event of a business event (its own type): the event as the admin API shows it, with its realm and user id. */
export function businessEventWebhook(event: BusinessEvent, email: string | null, realmUid: string): WebhookEvent {
  return { type: event.type, realmUid, data: { ...adminEventBody(event, email), realm_uid: realmUid, user_id: event.userId } };
}

/** The admin's view of a realm's log, newest first, filtered by type, user and period. */
export async function listRealmEvents(ctx: ActingContext, realm: Realm, page: Page, query: Static<typeof RealmEventQuery>) {
  ctx.actor.assertHolds('realm.activity.read', realm.uid);
  const from = momentOf('from', query.from);
  const to = momentOf('to', query.to);
  const where = and(
    eq(e.realmId, realm.id),
    query.type !== undefined ? eq(e.type, query.type) : undefined,
    query.user_id !== undefined ? eq(e.userId, query.user_id) : undefined,
    from ? gte(e.createdAt, from) : undefined,
    to ? lt(e.createdAt, to) : undefined,
  );
  const rows = await ctx.db.select({ event: e, email: realmUsers.email })
    .from(e).leftJoin(realmUsers, eq(realmUsers.id, e.userId)).where(where)
    .orderBy(desc(e.createdAt), desc(e.id)).limit(page.perPage).offset(page.offset);
  const total = await countedTotal(rows, page, ctx.db, e, where);
  return { items: rows.map((r) => adminEventBody(r.event, r.email)), total };
}
