import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { Bindings, preparedShape } from '../../src/db/bindings.js';
import { startHarness, type Harness } from '../helpers/harness.js';

// A statement compiled once per shape of request and run with each request's values (db/bindings.ts).
describe('statements compiled once per shape', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await h.ctx.db.execute(sql`create table shape_probe (n integer not null, note text not null)`);
    await h.ctx.db.execute(sql`insert into shape_probe values (1, 'one'), (2, 'two'), (3, 'three')`);
  });
  afterAll(() => h.close());

  /** Notes of the rows above `min` and not named `except`, in one shape whatever the values. */
  const above = (min: number, except: string, shape = 'probe:above') => {
    const bindings = new Bindings();
    const query = h.ctx.db.select({ note: sql<string>`note` }).from(sql`shape_probe`)
      .where(sql`n > ${bindings.bind(min)} and note <> ${bindings.bind(except)}`).orderBy(sql`n`);
    return preparedShape(h.ctx.db, shape, query).execute(bindings.values);
  };

  it('answers each request of one shape with its own values', async () => {
    expect(await above(0, 'two')).toEqual([{ note: 'one' }, { note: 'three' }]);
    expect(await above(1, 'three')).toEqual([{ note: 'two' }]);
    expect(await above(2, 'none')).toEqual([{ note: 'three' }]);
  });

  it('refuses to compile a statement holding a value that was not bound, which every later request would get', async () => {
    const unbound = (min: number) => {
      const bindings = new Bindings();
      const query = h.ctx.db.select({ note: sql<string>`note` }).from(sql`shape_probe`).where(sql`n > ${min} and note <> ${bindings.bind('x')}`);
      return () => preparedShape(h.ctx.db, 'probe:unbound', query);
    };
    expect(unbound(0)).toThrow(/holds a value that is not bound/);
    // Nothing was kept under the shape: the next request of it is refused again rather than answered with 0.
    expect(unbound(2)).toThrow(/holds a value that is not bound/);
  });
});
