// A mailing campaign to a local SMTP listener (its own process), on PostgreSQL: 10,000 then 100,000
// recipients, each run on a fresh server process and database, the server's peak memory (VmHWM) read at
// the end, as `npm start` starts it and with V8's default heap; next to
// nodemailer alone sending the same 100,000 messages, composed beforehand the way the server composes
// them, through the same pool settings to the same listener, in the same run.
import fs from 'node:fs';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { loadConfig } from '../dist/config.js';
import { composeMail } from '../dist/mail/mime.js';
import { composeMailing } from '../dist/messaging/mailing.js';
import { checkTemplates } from '../dist/messaging/templates.js';
import { scratchPostgres, START_FLAGS, startServer, verdict } from './lib.js';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const BASELINE = Math.max(...SIZES);
const SUBJECT = 'Hello {{ user.first_name }}, your spring offer';
const BODY = `<h1>Spring offer for {{ user.name }}</h1>
<p>Dear {{ user.first_name }},</p>
<p>${'As a customer of Personal Banking you can now move your savings to an account with a better rate. '.repeat(6)}</p>
<p>Your username: {{ user.username | default: user.email }}</p>
<p><a href="https://bank.example/offers/spring">See the offer</a></p>`;
const POOL = { pool: true, maxConnections: 5, maxMessages: Infinity };

const sink = await startServer('smtp-sink');
const received = () => new Promise((resolve) => {
  sink.child.once('message', (m) => resolve(m.received));
  sink.child.send('count');
});

/**
 * nodemailer alone: the messages prepared first (not timed), then sent with 500 in flight; `raw` hands it
 * each message already written as MIME, the way the server does (src/mail/mime.ts), which leaves nodemailer
 * only the SMTP work: the ceiling of any sender over that transport. Without it nodemailer composes them.
 */
async function nodemailerAlone(count, raw) {
  const config = loadConfig({ SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'), BASE_URL: 'http://127.0.0.1:3000' });
  const templates = checkTemplates(SUBJECT, BODY, 'html');
  const mails = [];
  for (let i = 1; i <= count; i++) {
    const recipient = { id: i, uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, email: `user${i}@example.com`, username: null,
      firstName: `First${i}`, lastName: 'Last', secondLastName: '', externalId: null, customFields: {}, locale: 'en' };
    const mail = composeMailing(config, templates, null, { messageId: i, deliveryUuid: '00000000-0000-4000-8000-000000000000', recipient });
    mails.push(raw ? composeMail(config.mailFrom, mail, new Date()) : { from: config.mailFrom, ...mail });
  }
  const transport = nodemailer.createTransport({ ...POOL, url: sink.url });
  const before = await received();
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: 500 }, async () => {
    while (next < mails.length) await transport.sendMail(mails[next++]);
  }));
  const seconds = (performance.now() - started) / 1000;
  transport.close();
  if ((await received()) - before !== count) throw new Error('the listener did not get every message');
  return { rate: count / seconds, seconds };
}

const rss = (pid, field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/** A fresh server on a fresh database, `count` users written straight into it, one mailing delivery timed from the request to `completed`. */
async function campaign(count, execArgv) {
  const scratch = await scratchPostgres();
  if (!scratch) throw new Error('PostgreSQL is not reachable: set DATABASE_URL');
  const atrium = await startServer('atrium', { DATABASE_URL: scratch.url, SMTP_URL: sink.url }, execArgv);
  const idle = rss(atrium.pid, 'VmRSS');
  const api = async (method, path, body) => {
    const res = await fetch(`${atrium.url}/api/admin${path}`, {
      method, headers: { authorization: `Bearer ${atrium.token}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  try {
    const uid = `bench-${count}`;
    await api('POST', '/realms', { uid, name: 'Bench' });
    const db = new pg.Client({ connectionString: scratch.url });
    db.on('error', (err) => console.error('bench database client:', err.message));
    await db.connect();
    const { rows: [realm] } = await db.query('select id from realms where uid = $1', [uid]);
    await db.query(`insert into realm_users (realm_id, email, first_name, last_name)
      select $1::int, 'user' || g || '-' || $1::text || '@example.com', 'First' || g, 'Last' from generate_series(1, ${count}) g`, [realm.id]);
    await db.query('vacuum analyze realm_users');
    await db.end();
    const made = await api('POST', '/messaging/campaigns', { realm_uid: uid, name: 'Bench', type: 'mailing', subject: SUBJECT, body: BODY });
    const before = await received();
    const started = performance.now();
    const delivery = await api('POST', `/messaging/campaigns/${made.id}/deliveries`, {});
    let shown = delivery;
    while (shown.status !== 'completed' && shown.status !== 'failed') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      shown = await api('GET', `/messaging/campaigns/${made.id}/deliveries/${delivery.id}`);
    }
    const seconds = (performance.now() - started) / 1000;
    const got = (await received()) - before;
    if (shown.sent_count !== count || got !== count) throw new Error(`sent ${shown.sent_count}, the listener got ${got}, of ${count}`);
    return { rate: count / seconds, seconds, idle, peak: rss(atrium.pid, 'VmHWM') };
  } finally {
    await atrium.stop();
    await scratch.drop();
  }
}

try {
  const alone = await nodemailerAlone(BASELINE, false);
  console.log(`nodemailer alone, ${BASELINE.toLocaleString('en')} prepared messages: ${Math.round(alone.rate)} msgs/s (${alone.seconds.toFixed(1)} s)`);
  const ceiling = await nodemailerAlone(BASELINE, true);
  console.log(`nodemailer alone, the same ${BASELINE.toLocaleString('en')} messages handed over as MIME: ${Math.round(ceiling.rate)} msgs/s (${ceiling.seconds.toFixed(1)} s)`);
  // The server as `npm start` starts it (V8's old space capped at 256 MB), and with V8's default heap,
  // which grows lazily far past what the server keeps alive: the garbage of sent messages is collected late.
  for (const [size, flags] of SIZES.flatMap((n) => [[n, START_FLAGS], [n, []]])) {
    const run = await campaign(size, flags);
    if (flags.length) {
      verdict(`campaign of ${size.toLocaleString('en')} recipients (as npm start runs it)`, { figure: `${Math.round(run.rate)} msgs/s`, comparison: `${Math.round((run.rate / alone.rate) * 100)}% of nodemailer alone (${Math.round(alone.rate)} msgs/s)`, target: '≥ 70%', met: run.rate / alone.rate >= 0.7 });
      verdict(`server peak RSS during that campaign`, { figure: `${Math.round(run.peak)} MB`, comparison: `${Math.round(run.idle)} MB once started`, target: '< 200 MB', met: run.peak < 200 });
    }
    console.log(`atrium campaign (${flags.length ? `as npm start: ${flags.join(' ')}` : 'V8 default heap'}), ${size.toLocaleString('en')} recipients: ${Math.round(run.rate)} msgs/s (${run.seconds.toFixed(1)} s, `
      + `${Math.round((run.rate / alone.rate) * 100)}% of nodemailer alone; target ≥ 70%; ${Math.round((run.rate / ceiling.rate) * 100)}% of the MIME ceiling), server peak RSS ${Math.round(run.peak)} MB (target < 200 MB; ${Math.round(run.idle)} MB once started)`);
  }
} finally {
  await sink.stop();
}
