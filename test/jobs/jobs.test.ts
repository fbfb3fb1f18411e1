import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.js';
import { runDueJobs, type Job } from '../../src/jobs/runner.js';
import { expiredRowsJob } from '../../src/maintenance/expired-rows.js';
import { startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';
import { resetLinkIn, type SmtpListener } from '../helpers/smtp.js';
import { submitForm } from '../otp/flow.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('periodic jobs', () => {
  let h: Harness;
  let smtp: SmtpListener;

  beforeAll(async () => {
    ({ h, smtp } = await startHarnessWithSmtp());
  });
  afterAll(async () => { await h?.close(); });

  const counting = (name: string, everyMs: number, fail = false) => {
    const job = { name, everyMs, leaseMs: 60_000, runs: 0, run: async () => {
      job.runs += 1;
      if (fail) throw new Error('the job failed');
    } };
    return job satisfies Job;
  };

  it('runs a due job once per period, however many rounds start at once', async () => {
    const job = counting('counting', HOUR);
    const rounds = await Promise.all(Array.from({ length: 8 }, () => runDueJobs(h.ctx, [job])));
    expect(rounds.flat()).toEqual(['counting']);
    expect(job.runs).toBe(1);
    expect(await runDueJobs(h.ctx, [job])).toEqual([]);
    h.clock.advance(HOUR - 1);
    expect(await runDueJobs(h.ctx, [job])).toEqual([]);
    h.clock.advance(1);
    expect(await runDueJobs(h.ctx, [job])).toEqual(['counting']);
    expect(job.runs).toBe(2);
  });

  it('a failing run gives the job back: it runs again at its next period', async () => {
    const job = counting('failing', HOUR, true);
    expect(await runDueJobs(h.ctx, [job])).toEqual(['failing']);
    h.clock.advance(HOUR);
    expect(await runDueJobs(h.ctx, [job])).toEqual(['failing']);
    expect(job.runs).toBe(2);
  });

  it('removes one-time links a week after they ended: a late click is then an unknown link', async () => {
    const realm = await makeRealm(h);
    const user = await makeRealmUser(h, realm.uid);
    const asked = await submitForm(h, `/realms/${realm.uid}/password`, { identifier: user.email });
    expect(asked.statusCode).toBe(200);
    const link = resetLinkIn(await smtp.next(user.email));
    const visit = async () => (await h.request({ method: 'GET', url: link, token: null })).statusCode;

    h.clock.advance(DAY);
    await runDueJobs(h.ctx, [expiredRowsJob]);
    expect(await visit()).toBe(410);

    h.clock.advance(7 * DAY);
    expect(await runDueJobs(h.ctx, [expiredRowsJob])).toEqual(['expired-rows']);
    expect(await visit()).toBe(404);
  });

  it('removes the failure count of a made-up name a month after its last failure, and keeps a live lock', async () => {
    const realm = await makeRealm(h);
    const counted = async (subject: string) => rowsOf<{ n: number }>(await h.ctx.db.execute(sql`select count(*)::int as n from attempt_counters
      where subject like ${`%${subject}%`}`))[0].n;
    const failed = await submitForm(h, `/realms/${realm.uid}/login`, { username: 'made-up-name@nowhere.test', password: 'a guess of mine' });
    expect(failed.statusCode).toBe(401);
    expect(await counted('made-up-name@nowhere.test')).toBeGreaterThan(0);
    await h.ctx.db.execute(sql`insert into attempt_counters (scope, subject, failures, locked_until, updated_at)
      values ('test_lock', 'locked-subject', 6, ${new Date(h.clock.now().getTime() + 60 * DAY).toISOString()}::timestamptz, ${h.clock.now().toISOString()}::timestamptz)`);

    h.clock.advance(29 * DAY);
    await runDueJobs(h.ctx, [expiredRowsJob]);
    expect(await counted('made-up-name@nowhere.test')).toBeGreaterThan(0);
    h.clock.advance(2 * DAY);
    expect(await runDueJobs(h.ctx, [expiredRowsJob])).toEqual(['expired-rows']);
    expect(await counted('made-up-name@nowhere.test')).toBe(0);
    expect(await counted('locked-subject')).toBe(1);
  });
});
