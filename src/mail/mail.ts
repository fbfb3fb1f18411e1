import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Config } from '../config.js';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../security/private-modes.js';
import { composeMail } from './mime.js';

/** One outgoing mail: a plain-text body, and an HTML one where the sender has it. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** A stable Message-ID (a campaign's, per delivery and user); nodemailer makes one otherwise. */
  messageId?: string;
  /** Further headers (`List-Unsubscribe`...). */
  headers?: Record<string, string>;
}

/** Outgoing mail, for every feature that writes to users (one-time codes, campaigns...). */
export interface Mailer {
  /** Resolves once the mail server took the mail, or once the mail is in the outbox folder. */
  send(mail: Mail): Promise<void>;
  /** Ends the pooled connections. */
  close(): void;
}

/** Connections kept open to the mail server, shared by every sender of the process. */
const POOL = { pool: true, maxConnections: 5, maxMessages: Infinity };

/**
 * Over SMTP when SMTP_URL is set, through a pool of connections (nodemailer reads options from the
 * URL's query, `?ignoreTLS=true` or `?maxConnections=10` say, which win over the pool's), otherwise into DATA_DIR/outbox as one `.eml` file per mail, for a first run without a mail
 * server. The log line names the file, never the body: it may hold a code or a sign-in link.
 */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>, log: FastifyBaseLogger): Mailer {
  if (config.smtpUrl) {
    const url = config.smtpUrl;
    // nodemailer is loaded with the first mail: a server that sends none does not hold its modules.
    let transport: Promise<Transporter> | undefined;
    return {
      async send(mail) {
        transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport({ ...POOL, url }));
        await (await transport).sendMail(composeMail(config.mailFrom, mail, new Date()));
      },
      close: () => void transport?.then((opened) => opened.close(), () => {}),
    };
  }
  const outbox = path.join(config.dataDir, 'outbox');
  return {
    async send(mail) {
      const { raw } = composeMail(config.mailFrom, mail, new Date());
      await fs.mkdir(outbox, { recursive: true, mode: PRIVATE_FOLDER_MODE });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
      // Written beside its place and renamed, so a reader of the folder never sees half a mail.
      const temporary = path.join(outbox, `.${name}.part`);
      await fs.writeFile(temporary, raw, { flag: 'wx', mode: PRIVATE_FILE_MODE });
      await fs.rename(temporary, path.join(outbox, name));
      log.info({ file: path.join(outbox, name) }, 'SMTP_URL is not set: mail written to the outbox folder');
    },
    close: () => {},
  };
}
