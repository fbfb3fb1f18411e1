import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { RequestTransaction, runInTransaction } from '../../src/db/request-transaction.js';
import { readAll } from '../../src/db/parallel.js';
import { rowsOf } from '../../src/db/rows.js';
import type { Context } from '../../src/context.js';
import { startHarness, type Harness } from '../helpers/harness.js';

// The database handle finds the request's transaction itself: no copy of a context can lose it or keep it.
describe('the request transaction reached through any copy of the context', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await h.ctx.db.execute(sql`create table handle_probe (note text not null)`);
  });
  afterAll(() => h.close());

  const notes = async () => rowsOf<{ note: string }>(await h.ctx.db.execute(sql`select note from handle_probe order by note`)).map((r) => r.note);
  const within = async (commit: boolean, work: () => Promise<void>) => {
    const scope = await RequestTransaction.begin(h.ctx.db, h.ctx.log);
    await new Promise<void>((done, failed) => runInTransaction(scope, () => { work().then(done, failed); }));
    await scope.finish(commit);
  };

  it('rolls back what a copy made before the request wrote during it', async () => {
    const copy: Context = { ...h.ctx };
    await within(false, async () => {
      await copy.db.execute(sql`insert into handle_probe values ('rolled back')`);
      expect(rowsOf(await copy.db.execute(sql`select count(*)::int as n from handle_probe`))).toEqual([{ n: 1 }]);
    });
    expect(await notes()).toEqual([]);
  });

  it('writes through the pool with a copy made during a request and used after it ended', async () => {
    let copy!: Context;
    await within(true, async () => {
      copy = { ...h.ctx };
      await copy.db.execute(sql`insert into handle_probe values ('during')`);
    });
    await copy.db.execute(sql`insert into handle_probe values ('after')`);
    expect(await notes()).toEqual(['after', 'during']);
  });

  it('reads one at a time inside the transaction, and answers each read in its place', async () => {
    const count = (table: string) => async () => rowsOf<{ n: number }>(await h.ctx.db.execute(sql.raw(`select count(*)::int as n from ${table}`)))[0].n;
    let answers: number[] = [];
    await within(false, async () => {
      await h.ctx.db.execute(sql`insert into handle_probe values ('one')`);
      answers = await readAll(h.ctx.db, [count('handle_probe'), count('handle_probe'), count('handle_probe'), async () => 7]);
    });
    expect(answers).toEqual([3, 3, 3, 7]);
  });
});
