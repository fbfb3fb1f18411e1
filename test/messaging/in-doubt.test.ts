import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, type Mailer } from '../../src/mail/mail.js';
import { drainSending } from '../../src/messaging/worker.js';
import { startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';
import { type SmtpListener } from '../helpers/smtp.js';
import { deliver, makeCampaign, messagesOf, showDelivery, unfolded } from './fixtures.js';

const CAMPAIGNS = '/api/admin/messaging/campaigns';
const LEASE_MS = 300_000;

/** A real SMTP server that takes each message's data and never answers: a sender talking to it is stuck mid-message. */
async function startSilentSmtp() {
  const arrived: string[] = [];
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'], logger: false,
    onData(stream, session) {
      stream.resume();
      stream.on('end', () => arrived.push(...session.envelope.rcptTo.map((r) => r.address)));
    },
  });
  const sockets = new Set<Socket>();
  server.server.on('connection', (socket: Socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    arrived,
    /** Drops every connection, as a crashed mail server would: the senders' pending messages fail. */
    cut: () => {
      for (const socket of sockets) socket.destroy();
      server.server.close();
    },
  };
}

describe('messages in doubt and failures', () => {
  let h: Harness;
  let smtp: SmtpListener;
  let working: Mailer;

  beforeAll(async () => {
    ({ h, smtp } = await startHarnessWithSmtp());
    working = h.ctx.mail;
  });
  afterAll(async () => { await h?.close(); });

  const mailerTo = (url: string) => createMailer({ smtpUrl: url, mailFrom: 'Bank <bank@example.com>', dataDir: h.config.dataDir }, h.ctx.log);

  it('a message whose sender stopped mid-send is in doubt, never sent again on its own; resend_in_doubt sends it explicitly', async () => {
    const realm = await makeRealm(h);
    const users = [await makeRealmUser(h, realm.uid), await makeRealmUser(h, realm.uid), await makeRealmUser(h, realm.uid)];
    const campaign = await makeCampaign(h, realm.uid);
    const delivery = await deliver(h, campaign.id);

    const silent = await startSilentSmtp();
    const stuckMailer = mailerTo(silent.url);
    h.ctx.mail = stuckMailer;
    const stuck = drainSending({ ...h.ctx }, 'doomed');
    while (silent.arrived.length < users.length) await new Promise((resolve) => setTimeout(resolve, 10));
    h.ctx.mail = working;

    // Another worker, before the lease ends: nothing to take, nothing sent.
    await drainSending(h.ctx, 'survivor');
    expect((await showDelivery(h, campaign.id, delivery.id))).toMatchObject({ status: 'sending', in_doubt_count: 0, sent_count: 0 });
    h.clock.advance(LEASE_MS + 1);
    await drainSending(h.ctx, 'survivor');
    expect(await showDelivery(h, campaign.id, delivery.id)).toMatchObject({ status: 'completed', reach: 3, in_doubt_count: 3, sent_count: 0 });
    expect((await messagesOf(h, delivery.id)).map((m) => m.status)).toEqual(['in_doubt', 'in_doubt', 'in_doubt']);
    expect(smtp.received.filter((m) => users.some((u) => m.to.includes(u.email.toLowerCase())))).toHaveLength(0);

    // The stuck sender's report, when it comes, changes nothing: the rows are no longer its own.
    silent.cut();
    await stuck;
    stuckMailer.close();
    expect(await showDelivery(h, campaign.id, delivery.id)).toMatchObject({ in_doubt_count: 3, failed_count: 0 });

    const resends = await Promise.all(Array.from({ length: 20 }, () =>
      h.request({ method: 'POST', url: `${CAMPAIGNS}/${campaign.id}/deliveries/${delivery.id}/resend_in_doubt` })));
    expect(resends.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(resends[0].json()).toMatchObject({ in_doubt_count: 0 });
    await drainSending(h.ctx);
    expect(await showDelivery(h, campaign.id, delivery.id)).toMatchObject({ status: 'completed', sent_count: 3, in_doubt_count: 0 });
    for (const user of users) expect(smtp.received.filter((m) => m.to.includes(user.email.toLowerCase()))).toHaveLength(1);
    const again = await smtp.next(users[0].email);
    expect(unfolded(again.raw)).toContain(`Message-ID: <${delivery.uuid}.${users[0].uuid}@atrium.test>`);
  });

  it('a mail server that cannot be reached is tried again with backoff, then the message is failed with the reason', async () => {
    const realm = await makeRealm(h);
    await makeRealmUser(h, realm.uid);
    const campaign = await makeCampaign(h, realm.uid);
    const delivery = await deliver(h, campaign.id);
    const unreachable = mailerTo('smtp://127.0.0.1:1');
    h.ctx.mail = unreachable;
    try {
      await drainSending(h.ctx);
      let [message] = await messagesOf(h, delivery.id);
      expect(message).toMatchObject({ status: 'pending', failure_reason: expect.stringMatching(/ECONNREFUSED|connect/) });
      for (const wait of [30_000, 120_000, 480_000]) {
        h.clock.advance(wait - 1);
        await drainSending(h.ctx);
        expect((await messagesOf(h, delivery.id))[0].status).toBe('pending');
        h.clock.advance(1);
        await drainSending(h.ctx);
      }
      [message] = await messagesOf(h, delivery.id);
      expect(message).toMatchObject({ status: 'failed', sent_at: null, failure_reason: expect.stringMatching(/ECONNREFUSED|connect/) });
      expect(await showDelivery(h, campaign.id, delivery.id)).toMatchObject({ status: 'failed', failed_count: 1, sent_count: 0 });
    } finally {
      h.ctx.mail = working;
      unreachable.close();
    }
  });
});
