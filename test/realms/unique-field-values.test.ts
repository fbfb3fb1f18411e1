import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.js';
import { uniqueValueHolder } from '../../src/realms/field-values.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm } from '../helpers/realms.js';

// The unique rule of a custom field runs on every sign-up and profile edit that sends the field, under the realm's
// lock: it must find the holder of a value through the custom fields' index, not by reading every user of the realm.

let h: Harness;
let realmId: number;
const USERS = 3000;

beforeAll(async () => {
  h = await startHarness();
  const realm = await makeRealm(h);
  [{ id: realmId }] = rowsOf<{ id: number }>(await h.ctx.db.execute(sql`select id from realms where uid = ${realm.uid}`));
  await h.ctx.db.execute(sql`insert into realm_users (realm_id, email, custom_fields)
    select ${realmId}, 'member' || g || '@example.com', jsonb_build_object('badge', 'B' || g, 'level', g % 10) from generate_series(1, ${USERS}) g`);
  await h.ctx.db.execute(sql`analyze realm_users`);
});

afterAll(async () => {
  await h.close();
});

const holder = async (userId: number | null, key: string, value: string | number) =>
  (await uniqueValueHolder(h.ctx.db, realmId, userId, key, value))[0]?.id ?? null;

describe('the unique rule of custom fields', () => {
  it('reads the holder of a value from the custom fields index', async () => {
    const plan = rowsOf<{ 'QUERY PLAN': string }>(await h.ctx.db.execute(sql`explain ${uniqueValueHolder(h.ctx.db, realmId, null, 'badge', 'B17').getSQL()}`));
    expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toMatch(/Bitmap Index Scan on realm_users_custom_fields_idx/);
  });

  it('finds another user with the same value, of the same type only, and never the user being written', async () => {
    const [{ id }] = rowsOf<{ id: number }>(await h.ctx.db.execute(sql`select id from realm_users where email = 'member17@example.com'`));
    expect(await holder(null, 'badge', 'B17')).toBe(id);
    expect(await holder(id, 'badge', 'B17')).toBeNull();
    expect(await holder(null, 'badge', 'B170000')).toBeNull();
    expect(await holder(null, 'level', '7')).toBeNull();
    expect(await holder(null, 'level', 7)).not.toBeNull();
  });
});
