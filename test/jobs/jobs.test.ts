import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
