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
import { EVENT_TYPES, eventDescription, eventTitle } from '../shared/event-catalog.js';
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

/** Each built-in type's title in a locale, as the JSON text the page statement reads them from (a custom type's is empty). */
const titlesJson = Object.fromEntries((['en', 'es'] as const).map((locale) => [locale,
  JSON.stringify(Object.fromEntries(Object.keys(EVENT_TYPES).map((type) => [type, eventTitle(type, locale)])))])) as Record<Locale, string>;

const p = (name: string) => sql.placeholder(name);

/**
 * A slice of a user's shown events (`limit` and `offset` in the order `shown`, or in the reverse one `fromOtherEnd`),
 * read from the user index alone (its key holds the order and every column shown), answered as the JSON text of its
 * items in the order `shown`: PostgreSQL writes them, so that a page of 100 is one value to read, not 100 rows to parse
 * and map. Each item is what the `UserEvent` schema's serializer makes, which the events tests read: the type's title
 * (`titles`), the realm's description (`description`, JSON text) and the moment. With `counted`, the user's counter comes too: one round trip
 * for the first page, the page most asked for. Prepared once per order: this is the customers API's hot path.
 */
const slice = (db: Db, shown: Term[], { fromOtherEnd = false, counted = false } = {}) => prepared(db, `user_events_${counted ? 'first_' : ''}${orderName(shown)}${fromOtherEnd ? '_reversed' : ''}`, (d, name) => {
  const read = fromOtherEnd ? reversed(shown) : shown;
  const rows = d.select({ type: e.type, created: isoText(e.createdAt).as('created'), createdAt: e.createdAt, id: e.id })
    .from(e)
    .where(ofUser(sql`${p('user')}`, sql`${p('everything')}`))
    .orderBy(...read.map(([column, direction]) => (direction === 'asc' ? asc : desc)(column)))
    .limit(p('limit')).offset(p('offset'))
    .as('slice');
  const columnOf = { [e.createdAt.name]: rows.createdAt, [e.id.name]: rows.id, [e.type.name]: rows.type };
  const order = sql.join(shown.map(([column, direction]) => sql`${columnOf[column.name]} ${sql.raw(direction)}`), sql`, `);
  return d.select({
    items: sql<string | null>`string_agg('{"title":' || coalesce((${p('titles')}::jsonb -> ${rows.type})::text, '""') || ',"description":'
      || ${p('description')}::text || ',"created_at":"' || ${rows.created} || '"}', ',' order by ${order})`,
    ...(counted ? {
      total: sql<number | null>`(select ${counts.total} from ${counts} where ${counts.userId} = ${p('user')})`.mapWith(Number),
      impersonated: sql<number | null>`(select ${counts.impersonated} from ${counts} where ${counts.userId} = ${p('user')})`.mapWith(Number),
    } : {}),
  }).from(rows).prepare(name);
});

const userCount = (db: Db) => prepared(db, 'user_event_count', (d, name) => d
  .select({ total: counts.total, impersonated: counts.impersonated })
  .from(counts)
  .where(eq(counts.userId, sql`${p('user')}`))
  .prepare(name));

/**
 * Spec 4.3 rules 2-3 and 2.8: the signed-in user's business events, titled in the locale asked for, as the JSON
 * text of the answer (`slice`).
 * The total is the user's counter (no count of the history); a page past the middle is read from the
 * other end, so that no page reads more than half the history to skip to its rows. (Past the first page, the counter
 * and the page are two statements: an event recorded between them shifts the page by one, as it would between two
 * requests.)
 */
export async function userEventPage(ctx: Context, customer: Customer, page: Page, query: Static<typeof UserEventQuery>, locale: Locale): Promise<string> {
  const key = sortKeyOf(USER_ORDER, query.sort_by, 'created_at');
  const terms = USER_ORDER[key][query.order?.toLowerCase() === 'asc' ? 'asc' : 'desc'];
  const everything = query.not_impersonated === undefined;
  const values = { user: customer.user.id, everything, titles: titlesJson[locale], description: JSON.stringify(eventDescription(customer.realm.name, locale)) };
  const text = (items: string | null, total: number) => `{"events":[${items ?? ''}],"meta":${JSON.stringify(metaOf(total, page))}}`;
  const countShown = (count: { total?: number | null; impersonated?: number | null } | undefined) => (count ? (count.total ?? 0) - (everything ? 0 : count.impersonated ?? 0) : 0);
  if (page.offset === 0) {
    const [first] = await slice(ctx.db, terms, { counted: true }).execute({ ...values, limit: page.perPage, offset: 0 });
    // No item: none of the user's events is shown, whatever the counter holds.
    return text(first.items, first.items === null ? 0 : countShown(first));
  }
  const [count] = await userCount(ctx.db).execute({ user: customer.user.id });
  const total = countShown(count);
  const limit = Math.min(page.perPage, total - page.offset);
  if (limit <= 0) return text(null, total);
  const [found] = page.offset + limit / 2 > total / 2
    ? await slice(ctx.db, terms, { fromOtherEnd: true }).execute({ ...values, limit, offset: total - page.offset - limit })
    : await slice(ctx.db, terms).execute({ ...values, limit, offset: page.offset });
  return text(found.items, total);
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
