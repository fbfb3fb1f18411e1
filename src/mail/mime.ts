import { randomBytes, randomUUID } from 'node:crypto';
import type addressparser from 'nodemailer/lib/addressparser';
import type * as MimeFuncs from 'nodemailer/lib/mime-funcs';
import type * as Qp from 'nodemailer/lib/qp';
import { lazyRequire } from '../shared/lazy-require.js';
import type { Mail } from './mail.js';

// nodemailer's encoders, loaded with the first mail written: about 1 MB a server sending none never holds.
const parseAddresses = lazyRequire<typeof addressparser>('nodemailer/lib/addressparser');
const mimeFuncs = lazyRequire<typeof MimeFuncs>('nodemailer/lib/mime-funcs');
const qp = lazyRequire<typeof Qp>('nodemailer/lib/qp');

/** A message as it goes on the wire, with the addresses its envelope names. */
export interface ComposedMail {
  envelope: { from: string; to: string[] };
  raw: string;
}

/**
 * Writes a mail as one MIME message (RFC 5322, 2045–2047): headers, then the text part alone or the text and
 * HTML parts as multipart/alternative, each UTF-8 in quoted-printable. Composed here as one string rather
 * than by nodemailer's streaming composer, which allocated about six times as much per message: the garbage
 * of a large campaign is what made the server's memory grow.
 */
const senderOf = (from: string) => parseAddresses()(from, { flatten: true })[0] as addressparser.Address | undefined;

/** A fresh Message-ID in the sender's domain (MAIL_FROM's). */
export function newMessageId(from: string): string {
  const fromAddress = senderOf(from)?.address ?? from;
  return `<${randomUUID()}@${fromAddress.split('@')[1] ?? 'localhost'}>`;
}

export function composeMail(from: string, mail: Mail, now: Date): ComposedMail {
  const sender = senderOf(from);
  const fromAddress = sender?.address ?? from;
  const to = headerSafe(mail.to);
  const headers = [
    header('From', sender?.name ? `${phrase(sender.name)} <${fromAddress}>` : fromAddress),
    header('To', to),
    header('Subject', mimeFuncs().encodeWords(headerSafe(mail.subject), 'Q', 52)),
    header('Date', now.toUTCString().replace(/GMT$/, '+0000')),
    header('Message-ID', mail.messageId ?? newMessageId(from)),
    header('MIME-Version', '1.0'),
    ...Object.entries(mail.headers ?? {}).map(([name, value]) => header(name, headerSafe(value))),
  ];
  const text = part('text/plain', mail.text);
  if (mail.html === undefined) return { envelope: { from: fromAddress, to: [to] }, raw: `${headers.join('')}${text}` };
  const boundary = `--_atrium_${randomBytes(12).toString('hex')}`;
  const body = `--${boundary}\r\n${text}\r\n--${boundary}\r\n${part('text/html', mail.html)}\r\n--${boundary}--\r\n`;
  return {
    envelope: { from: fromAddress, to: [to] },
    raw: `${headers.join('')}${header('Content-Type', `multipart/alternative; boundary="${boundary}"`)}\r\n${body}`,
  };
}

const header = (name: string, value: string) => `${mimeFuncs().foldLines(`${name}: ${value}`, 76)}\r\n`;

/** A header value on one line: a line break in a value would start a header of someone else's choosing. */
const headerSafe = (value: string) => value.replace(/[\r\n]+/g, ' ');

/** A display name: encoded words when it is not plain ASCII, quoted when it holds specials. */
function phrase(name: string): string {
  const clean = headerSafe(name);
  if (/[^\x20-\x7e]/.test(clean)) return mimeFuncs().encodeWord(clean, 'Q', 52);
  return /[()<>[\]:;@\\,."]/.test(clean) ? `"${clean.replace(/["\\]/g, '\\$&')}"` : clean;
}

function part(type: string, content: string): string {
  const lines = content.replace(/\r?\n/g, '\r\n');
  return `Content-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${qp().wrap(qp().encode(lines), 76)}\r\n`;
}
