import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { ipLiteralOf, isPrivateAddress } from './targets.js';

export type AttemptOutcome = 'succeeded' | 'failed' | 'timeout' | 'refused' | 'error';

export interface PostResult {
  outcome: AttemptOutcome;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The beginning of the answer's body. */
  response: string | null;
}

export const TIMEOUT_MS = 15_000;
/** What is kept of an answer's body for the admin; reading stops (and the connection is dropped) past READ_LIMIT. */
const EXCERPT_BYTES = 512;
const READ_LIMIT = 64 * 1024;
const PRIVATE_CODE = 'ERR_WEBHOOK_PRIVATE_ADDRESS';

class PrivateAddress extends Error {
  readonly code = PRIVATE_CODE;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * dns.lookup, refusing a name any of whose addresses is private: checked on what the connection will
 * use, so a name that resolves (or rebinds) to 127.0.0.1 or 169.254.169.254 is refused at send time.
 */
function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(new PrivateAddress(`${hostname} resolves to ${bad.address}, a private, loopback or link-local address`), []);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}

/** POSTs webhook bodies over kept-alive connections; one per sending process. */
export class WebhookTransport {
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 64 });

  constructor(private readonly allowPrivate: boolean) {}

  post(rawUrl: string, headers: Record<string, string>, body: string): Promise<PostResult> {
    const started = performance.now();
    const result = (outcome: AttemptOutcome, statusCode: number | null, error: string | null, response: string | null): PostResult =>
      ({ outcome, statusCode, durationMs: Math.round(performance.now() - started), error, response });
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return Promise.resolve(result('error', null, 'The URL cannot be parsed', null));
    }
    const literal = ipLiteralOf(url);
    if (!this.allowPrivate && literal && isPrivateAddress(literal)) {
      return Promise.resolve(result('refused', null, `${literal} is a private, loopback or link-local address`, null));
    }
    const secure = url.protocol === 'https:';
    return new Promise((resolve) => {
      let done = false;
      const finish = (value: PostResult) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve(value);
      };
      const request = (secure ? https : http).request(url, {
        method: 'POST',
        agent: secure ? this.httpsAgent : this.httpAgent,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Atrium-Webhooks/1' },
        ...(this.allowPrivate ? {} : { lookup: guardedLookup as never }),
      }, (answer) => {
        const chunks: Buffer[] = [];
        let read = 0;
        answer.on('data', (chunk: Buffer) => {
          if (read < EXCERPT_BYTES) chunks.push(chunk);
          read += chunk.length;
          if (read > READ_LIMIT) answer.destroy();
        });
        const settle = () => {
          const status = answer.statusCode ?? 0;
          const excerpt = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8').replace(/\u0000/g, '');
          // Redirects are not followed: the target named is the one that must answer.
          finish(result(status >= 200 && status < 300 ? 'succeeded' : 'failed', status, null, excerpt || null));
        };
        answer.on('end', settle);
        answer.on('close', settle);
        answer.on('error', settle);
      });
      const timer = setTimeout(() => {
        request.destroy();
        finish(result('timeout', null, `No answer within ${TIMEOUT_MS / 1000} s`, null));
      }, TIMEOUT_MS);
      request.on('error', (err: NodeJS.ErrnoException) => {
        finish(err.code === PRIVATE_CODE ? result('refused', null, err.message, null) : result('error', null, err.message.slice(0, 500), null));
      });
      request.end(body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
