import { Writable } from 'node:stream';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Harness } from './harness.js';

/** An app on the harness's database whose log lines (JSON) are collected in `lines`. */
export async function loggedApp(h: Harness) {
  const lines: string[] = [];
  const sink = new Writable({ write(chunk, _encoding, done) { lines.push(...String(chunk).trim().split('\n')); done(); } });
  const logger = pino({ level: 'info' }, sink) as unknown as FastifyBaseLogger;
  // The operations log through the context (the sign-out calls), the server through its own logger.
  // Its `db` stays a getter of the harness's, which follows the request transaction of an admin write.
  const app = await buildApp({ ...h.ctx, log: logger, get db() { return h.ctx.db; } }, { logger });
  return { app, lines };
}
