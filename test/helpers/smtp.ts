import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The whole message as it arrived (headers and body). */
  raw: string;
}

export interface SmtpListener {
  /** The SMTP_URL that reaches it. */
  url: string;
  received: ReceivedMail[];
  /** The next mail for that address (or one already received and not yet taken). */
  next(to: string): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export interface SmtpOptions {
  /** The port to listen on (a listener started again where a stopped one was); a free one otherwise. */
  port?: number;
  /** Called when a mail's data has arrived; the mail is accepted (and kept) once it resolves: a slow server. */
  accepting?: () => Promise<void>;
}

/**
 * A real SMTP server on loopback that keeps what it receives. Plain SMTP without STARTTLS: a listener
 * that offered STARTTLS would make nodemailer upgrade to TLS against its self-signed certificate.
 */
export async function startSmtp(options: SmtpOptions = {}): Promise<SmtpListener> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiting: { to: string; resolve(mail: ReceivedMail): void }[] = [];
  const deliver = (mail: ReceivedMail) => {
    received.push(mail);
    const i = waiting.findIndex((w) => mail.to.includes(w.to.toLowerCase()));
    if (i >= 0) {
      taken.add(mail);
      waiting.splice(i, 1)[0].resolve(mail);
    }
  };
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'], logger: false,
    // A client's pooled connection still open at close is cut after this, not after the default 30 s.
    closeTimeout: 200,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        // A refusal (an error with a responseCode) is answered as the mail server's reply.
        Promise.resolve(options.accepting?.()).then(() => {
          deliver(mail);
          callback();
        }, (err: Error) => callback(err));
      });
    },
  });
  // A sender that dies mid-message (the crash test kills one) resets its connection: not the listener's failure.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    next(to) {
      const ready = received.find((m) => !taken.has(m) && m.to.includes(to.toLowerCase()));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve) => waiting.push({ to, resolve }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The 6-digit code a one-time code mail carries. */
export function codeIn(mail: ReceivedMail): string {
  const code = /\bis (\d{6})\b/.exec(mail.raw)?.[1];
  if (!code) throw new Error(`no code in the mail:\n${mail.raw}`);
  return code;
}

/** The HTML part of a received mail, as written (quoted-printable decoded, line ends as LF). */
export const htmlPart = (mail: ReceivedMail): string => textPartOf(mail, 'html');

/** The text/html or text/plain part of a received mail, as written (quoted-printable decoded, line ends as LF). */
export function textPartOf(mail: ReceivedMail, subtype: 'html' | 'plain'): string {
  const part = new RegExp(`Content-Type: text/${subtype}; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n([\\s\\S]*?)\r\n\r\n-+_atrium_`);
  const body = part.exec(mail.raw)?.[1];
  if (body === undefined) throw new Error(`no text/${subtype} part in the mail:\n${mail.raw}`);
  const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8').replace(/\r\n/g, '\n');
}

/** A mail's text as written (quoted-printable soft line breaks joined, `=3D` read back). */
export const mailText = (mail: ReceivedMail) => mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

/** The path of the one-time link a mail carries, found by `pattern` (its first group); fails the test when there is none. */
function linkPathIn(mail: ReceivedMail, pattern: RegExp, what: string): string {
  const path = pattern.exec(mailText(mail))?.[1];
  if (!path) throw new Error(`no ${what} link in the mail:\n${mail.raw}`);
  return path;
}

/** The path of the activation link an activation mail carries. */
export const activationLinkIn = (mail: ReceivedMail) =>
  linkPathIn(mail, /https?:\/\/[^/\s]+(\/realms\/[^/\s]+\/activation\/[A-Za-z0-9_-]{43})/, 'activation');

/** The path of the password reset link a reset mail carries, at the tests' BASE_URL. */
export const resetLinkIn = (mail: ReceivedMail) =>
  linkPathIn(mail, /http:\/\/atrium\.test(\/realms\/[^/\s]+\/password\/reset\/[A-Za-z0-9_-]{43})/, 'reset');

/** The path (with its query) of the invitation link an invitation mail carries. */
export const invitationLinkIn = (mail: ReceivedMail) =>
  linkPathIn(mail, /http:\/\/atrium\.test(\/realms\/[^/\s]+\/signup\?invitation=[A-Za-z0-9_-]{43})/, 'invitation');

/** The token of the link a team invitation mail carries. */
export const memberInvitationTokenIn = (mail: ReceivedMail) =>
  linkPathIn(mail, /https?:\/\/[^/\s]+\/admin\/invitation\/([A-Za-z0-9_-]{43})/, 'team invitation');
