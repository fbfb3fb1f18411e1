import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { Clock } from '../../src/clock.js';

export interface Received {
  id: string;
  timestamp: number;
  signatures: string[];
  body: string;
  headers: http.IncomingHttpHeaders;
  /** The secrets (of those the test gave) whose signature is in the request, checked by `standardwebhooks`. */
  verifiedWith: string[];
}

/** What the receiver answers to the nth request it gets (0-based): a status, and headers such as Location. */
export type Answer = (n: number) => { status: number; headers?: Record<string, string>; body?: string; delayMs?: number };

export interface Receiver {
  url: string;
  received: Received[];
  /** Secrets to verify with (the test adds one after each creation or rotation). */
  secrets: string[];
  answer: Answer;
  close(): Promise<void>;
}

/**
 * A local webhook receiver that checks every request's signature with the `standardwebhooks` package
 * against each secret it was given, reading the timestamp against `clock` (the tests' injected time;
 * a real clock for process tests), and keeps what came.
 */
export async function startReceiver(clock: Clock | null, answer: Answer = () => ({ status: 204 })): Promise<Receiver> {
  const received: Received[] = [];
  const receiver: Receiver = { url: '', received, secrets: [], answer, close: async () => {} };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
      const verifiedWith = receiver.secrets.filter((secret) => verifies(secret, body, headers, clock));
      received.push({
        id: headers['webhook-id'], timestamp: Number(headers['webhook-timestamp']), signatures: (headers['webhook-signature'] ?? '').split(' '),
        body, headers: request.headers, verifiedWith,
      });
      const { status, headers: extra, body: text, delayMs } = receiver.answer(received.length - 1);
      setTimeout(() => response.writeHead(status, extra).end(text ?? ''), delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return receiver;
}

/** standardwebhooks reads Date.now() for its five-minute tolerance: it is given the test's clock during the (synchronous) check. */
function verifies(secret: string, body: string, headers: Record<string, string>, clock: Clock | null): boolean {
  const real = Date.now;
  if (clock) Date.now = () => clock.now().getTime();
  try {
    new Webhook(secret).verify(body, headers);
    return true;
  } catch {
    return false;
  } finally {
    Date.now = real;
  }
}
