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

  // The async context is on only while some request's transaction is open: one ending must not take it from another.
  it('keeps a request in its transaction when another request\'s transaction ends first', async () => {
    const first = await RequestTransaction.begin(h.ctx.db, h.ctx.log);
    let otherEnded!: () => void;
    const ended = new Promise<void>((resolve) => { otherEnded = resolve; });
    const firstWork = new Promise<void>((done, failed) => runInTransaction(first, () => {
      (async () => {
        await h.ctx.db.execute(sql`insert into handle_probe values ('first')`);
        await ended;
        // The other request has committed: this one still writes inside its own transaction.
        await h.ctx.db.execute(sql`insert into handle_probe values ('still first')`);
      })().then(done, failed);
    }));
    // The embedded database has one connection, held by the first transaction: only PostgreSQL opens a second.
    const other = process.env.DATABASE_URL ? await RequestTransaction.begin(h.ctx.db, h.ctx.log) : null;
    if (other) {
      await new Promise<void>((done, failed) => runInTransaction(other, () => { h.ctx.db.execute(sql`insert into handle_probe values ('other')`).then(() => done(), failed); }));
      await other.finish(true);
    }
    otherEnded();
    await firstWork;
    await first.finish(false);
    expect(await notes()).toEqual(other ? ['after', 'during', 'other'] : ['after', 'during']);
    await h.ctx.db.execute(sql`delete from handle_probe where note = 'other'`);
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
