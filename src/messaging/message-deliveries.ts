import { sql, type SQL } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import { personalDataReach } from '../admin-auth/personal-data.js';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Page } from '../db/paging.js';
import { rowsOf } from '../db/rows.js';
import { INT32_MAX } from '../http/models.js';
import { fullNameOf } from './recipients.js';
import type { MESSAGE_STATUSES, MessageDeliveryModel } from './schema.js';

export type MessageDeliveryBody = Static<typeof MessageDeliveryModel>;

interface Row {
  id: number;
  status: string;
  sent_at: string | Date | null;
  opened_at: string | Date | null;
  failure_reason: string | null;
  delivery_id: number;
  delivery_start: string | Date;
  campaign_name: string;
  campaign_type: string;
  email: string;
  first_name: string;
  last_name: string;
  second_last_name: string;
  total: number;
}

const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

function messageBody(row: Row): MessageDeliveryBody {
  return {
    id: row.id,
    user_name: fullNameOf({ firstName: row.first_name, lastName: row.last_name, secondLastName: row.second_last_name }) || row.email,
    user_email: row.email,
    type: row.campaign_type === 'notification' ? 'admin.messaging.notification' : 'admin.messaging.mail',
    status: row.status as (typeof MESSAGE_STATUSES)[number],
    sent_at: iso(row.sent_at),
    opened: row.opened_at !== null,
    opened_at: iso(row.opened_at),
    failure_reason: row.failure_reason,
    delivery_id: row.delivery_id,
    campaign_name: row.campaign_name,
    delivery_start_date: iso(row.delivery_start)!,
  };
}

export interface MessageFilter {
  campaign_id?: number;
  delivery_id?: number;
}

/**
 * A page of messages, oldest first, of the realms `visible` names (null: every realm). A notification's
 * opening is its inbox notification's (`opened_at` there), so the user opening it shows here at once.
 */
export async function listMessageDeliveries(ctx: ActingContext, page: Page, filter: MessageFilter) {
  // The messages name their users: only realms where the actor may read both (403 when none).
  const visible = personalDataReach(ctx.actor, 'messaging.read');
  const conditions: SQL[] = [];
  if (filter.campaign_id !== undefined) conditions.push(sql`m.campaign_id = ${Math.min(filter.campaign_id, INT32_MAX)}`);
  if (filter.delivery_id !== undefined) conditions.push(sql`m.delivery_id = ${Math.min(filter.delivery_id, INT32_MAX)}`);
  if (visible) conditions.push(visible.length ? sql`r.uid in (${sql.join(visible.map((uid) => sql`${uid}`), sql`, `)})` : sql`false`);
  const where = conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
  const rows = rowsOf<Row>(await ctx.db.execute(sql`
    select m.id, m.status, m.sent_at, coalesce(m.opened_at, n.opened_at) as opened_at, m.failure_reason, m.delivery_id,
      d.starts_at as delivery_start, c.name as campaign_name, c.type as campaign_type,
      u.email, u.first_name, u.last_name, u.second_last_name, count(*) over () as total
    from message_deliveries m
      join campaign_deliveries d on d.id = m.delivery_id
      join campaigns c on c.id = m.campaign_id
      join realms r on r.id = c.realm_id
      join realm_users u on u.id = m.user_id
      left join notifications n on n.id = m.notification_id
    ${where}
    order by m.id limit ${page.perPage} offset ${page.offset}`));
  let total = rows.length ? Number(rows[0].total) : 0;
  if (!rows.length && page.offset > 0) {
    [{ total }] = rowsOf<{ total: number }>(await ctx.db.execute(sql`select count(*)::int as total from message_deliveries m
      join campaigns c on c.id = m.campaign_id join realms r on r.id = c.realm_id ${where}`));
  }
  return { items: rows.map(messageBody), total };
}
