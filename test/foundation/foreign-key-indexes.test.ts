import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.js';
import { startHarness, type Harness } from '../helpers/harness.js';

// A row deleted from a table another table refers to makes PostgreSQL look up the referring rows (to cascade, set
// null or refuse). Without an index leading with the referring columns, that lookup reads the whole referring table,
// once for each deleted row: purging 5,000 expired authorization codes beside 200,000 access tokens took 55 s.

/**
 * The tables whose rows an admin deletes one at a time, and rarely (a realm, a member, a client, an API application,
 * a reviewer group, a space): one read of each referring table per deletion, where an index would cost every insert.
 */
const DELETED_ONE_AT_A_TIME = ['realms', 'admins', 'oauth_clients', 'api_applications', 'reviewer_groups', 'content_spaces'];

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.close();
});

describe('foreign keys', () => {
  it('have an index leading with their columns, unless their table\'s rows are deleted one at a time', async () => {
    const unindexed = rowsOf<{ child: string; columns: string; parent: string }>(await h.ctx.db.execute(sql`
      select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent,
        (select string_agg(a.attname, ',' order by a.attnum) from unnest(c.conkey) k join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k) as columns
      from pg_constraint c
      where c.contype = 'f' and not exists (
        select 1 from pg_index i where i.indrelid = c.conrelid
          and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] @> c.conkey and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] <@ c.conkey)
      order by 1, 3`));
    // The check itself finds what it must: the access tokens' client, left unindexed on purpose.
    expect(unindexed).toContainEqual({ child: 'oauth_access_tokens', columns: 'client_id', parent: 'oauth_clients' });
    expect(unindexed.filter((fk) => !DELETED_ONE_AT_A_TIME.includes(fk.parent))).toEqual([]);
  });

  it('let a purged code find its access tokens by index, and set them free of it', async () => {
    const { db } = h.ctx;
    await db.execute(sql`insert into realms (uid, name) values ('purge', 'Purge')`);
    await db.execute(sql`insert into realm_users (realm_id, email) select id, 'u@purge.test' from realms where uid = 'purge'`);
    await db.execute(sql`insert into oauth_clients (uid, realm_id, name, secret_hash, redirect_uris, scopes)
      select 'purge-app', id, 'App', 'x', '{}', '{public}' from realms where uid = 'purge'`);
    await db.execute(sql`insert into realm_sessions (realm_id, user_id, session_hash, expires_at)
      select realm_id, id, 'purge-session', now() + interval '1 day' from realm_users where email = 'u@purge.test'`);
    await db.execute(sql`insert into authorization_codes (code_hash, client_id, session_id, redirect_uri, scope, expires_at, created_at)
      select 'purge-code-' || g, c.id, s.id, 'https://app.test/cb', 'public', now() - interval '3 days', now() - interval '3 days'
      from generate_series(1, 2000) g, oauth_clients c, realm_sessions s where c.uid = 'purge-app' and s.session_hash = 'purge-session'`);
    await db.execute(sql`insert into oauth_access_tokens (token_hash, client_id, session_id, code_id, scope)
      select 'purge-token-' || g, c.id, s.id, case when g % 10 = 0 then (select min(id) from authorization_codes) + g % 2000 end, 'public'
      from generate_series(1, 50000) g, oauth_clients c, realm_sessions s where c.uid = 'purge-app' and s.session_hash = 'purge-session'`);
    await db.execute(sql`analyze oauth_access_tokens`);

    // The statement the foreign key runs for each code deleted.
    const plan = rowsOf<{ 'QUERY PLAN': string }>(await db.execute(sql`explain update oauth_access_tokens set code_id = null where code_id = 1`));
    expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toMatch(/(Index Scan using|Bitmap Index Scan on) oauth_access_tokens_code_idx/);
    await db.execute(sql`delete from authorization_codes where code_hash like 'purge-code-%'`);
    const [left] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from oauth_access_tokens where token_hash like 'purge-token-%' and code_id is not null`));
    expect(left.n).toBe(0);
  });
});
