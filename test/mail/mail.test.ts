import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMailer } from '../../src/mail/mail.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';
import { startSmtp, type SmtpListener } from '../helpers/smtp.js';
import { requestCodeAtPage, verify } from '../otp/flow.js';

/** A logger whose lines the test reads. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({ write(chunk: Buffer, _encoding, done) { lines.push(JSON.parse(chunk.toString())); done(); } });
  return { lines, log: pino({ level: 'info' }, stream) as unknown as FastifyBaseLogger };
}

const MAIL = { to: 'ada@example.com', subject: 'Your code', text: 'Your code is 424242.', html: '<p>Your code is <b>424242</b>.</p>' };

describe('outgoing mail', () => {
  let smtp: SmtpListener;
  let dataDir: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-mail-'));
  });
  afterAll(async () => {
    await smtp?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('goes over SMTP when SMTP_URL is set: envelope, headers, text and HTML parts', async () => {
    const { log } = capturingLogger();
    const mailer = createMailer({ smtpUrl: smtp.url, mailFrom: 'Bank <bank@example.com>', dataDir }, log);
    await mailer.send(MAIL);
    const mail = await smtp.next('ada@example.com');
    expect(mail.from).toBe('bank@example.com');
    expect(mail.raw).toMatch(/^From: Bank <bank@example\.com>\r$/m);
    expect(mail.raw).toMatch(/^Subject: Your code\r$/m);
    expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/);
    expect(mail.raw).toContain('Your code is 424242.');
    expect(fs.existsSync(path.join(dataDir, 'outbox'))).toBe(false);
    mailer.close();
  });

  it('keeps a line break in a subject or header value from starting a header, encodes non-ASCII, and keeps lines short', async () => {
    const { log } = capturingLogger();
    const mailer = createMailer({ smtpUrl: smtp.url, mailFrom: 'Banca Ñandú <bank@example.com>', dataDir }, log);
    const long = 'palabra '.repeat(40);
    await mailer.send({
      to: 'ines@example.com', subject: 'Tu código\r\nBcc: eve@example.com', text: `Hola\n${long}`, html: `<p>${long}</p>`,
      headers: { 'List-Unsubscribe': '<http://x.test/u>\r\nBcc: eve@example.com' },
    });
    const mail = await smtp.next('ines@example.com');
    const [head] = mail.raw.split('\r\n\r\n');
    expect(head).not.toMatch(/^Bcc:/im);
    expect(head).toMatch(/^From: =\?UTF-8\?Q\?Banca_=C3=91and=C3=BA\?= <bank@example\.com>\r$/m);
    expect(head).toMatch(/^Subject: Tu =\?UTF-8\?Q\?c=C3=B3digo\?= Bcc: eve@example\.com\r$/m);
    expect(mail.raw.split('\r\n').every((line) => line.length <= 78)).toBe(true);
    expect(mail.raw).toContain('Hola\r\npalabra palabra');
    expect(smtp.received.filter((m) => m.to.includes('eve@example.com'))).toHaveLength(0);
    mailer.close();
  });

  it('fails when the mail server cannot be reached', async () => {
    const { log } = capturingLogger();
    const closed = await startSmtp();
    await closed.close();
    const mailer = createMailer({ smtpUrl: closed.url, mailFrom: 'a@example.com', dataDir }, log);
    await expect(mailer.send(MAIL)).rejects.toThrow();
    mailer.close();
  });

  it('without SMTP_URL writes one .eml file per mail under DATA_DIR/outbox and logs its name, not its content', async () => {
    const { lines, log } = capturingLogger();
    const mailer = createMailer({ smtpUrl: undefined, mailFrom: 'Atrium <no-reply@localhost>', dataDir }, log);
    await Promise.all([mailer.send(MAIL), mailer.send({ ...MAIL, to: 'grace@example.com' })]);
    const outbox = path.join(dataDir, 'outbox');
    const files = fs.readdirSync(outbox);
    // A mail holds codes and links for its addressee alone.
    expect(fs.statSync(outbox).mode & 0o777).toBe(0o700);
    for (const file of files) expect(fs.statSync(path.join(outbox, file)).mode & 0o777).toBe(0o600);
    expect(files).toHaveLength(2);
    expect(files.every((f) => /^[^.].*\.eml$/.test(f))).toBe(true);
    const contents = files.map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'));
    expect(contents.some((c) => /^To: ada@example\.com\r$/m.test(c))).toBe(true);
    expect(contents.every((c) => c.includes('Your code is 424242.') && /^From: Atrium <no-reply@localhost>\r$/m.test(c))).toBe(true);
    expect(lines).toHaveLength(2);
    expect(lines.map((l) => l.file).sort()).toEqual(files.map((f) => path.join(outbox, f)).sort());
    expect(JSON.stringify(lines)).not.toContain('424242');
  });
});

describe('one-time codes without SMTP_URL', () => {
  let h: Harness;

  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  it('the code mail lands in DATA_DIR/outbox, and its code signs in', async () => {
    const realm = await makeRealm(h);
    const user = await makeRealmUser(h, realm.uid);
    expect((await requestCodeAtPage(h, realm.uid, user.email)).statusCode).toBe(303);
    const outbox = path.join(h.config.dataDir, 'outbox');
    // The mail leaves after the answer (the page does not wait for it): wait for the file.
    const file = await vi.waitFor(() => {
      const found = fs.existsSync(outbox) && fs.readdirSync(outbox).find((f) => f.endsWith('.eml'));
      if (!found) throw new Error('no mail in the outbox yet');
      return path.join(outbox, found);
    });
    const mail = fs.readFileSync(file, 'utf8');
    expect(mail).toMatch(new RegExp(`^To: ${user.email.replace(/[.]/g, '\\.')}\\r$`, 'm'));
    const code = /is (\d{6})\./.exec(mail)?.[1];
    expect((await verify(h, realm.uid, user.email, code!)).statusCode).toBe(200);
  });
});
