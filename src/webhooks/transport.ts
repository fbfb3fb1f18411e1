import { performance } from 'node:perf_hooks';
import { ConnectionPool, outboundRequest } from '../net/outbound.js';

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

/**
 * POSTs webhook bodies over kept-alive connections through the outbound guard; one per sending
 * process. The endpoint's owner sees what its target answered (status, an excerpt, why it failed).
 */
export class WebhookTransport {
  private readonly pool = new ConnectionPool();

  constructor(private readonly allowPrivate: boolean) {}

  async post(url: string, headers: Record<string, string>, body: string): Promise<PostResult> {
    const started = performance.now();
    const answer = await outboundRequest(url, {
      allowPrivate: this.allowPrivate, method: 'POST', body, pool: this.pool, timeoutMs: TIMEOUT_MS, maxBytes: READ_LIMIT, keepBytes: EXCERPT_BYTES,
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'Atrium-Webhooks/1' },
    });
    const durationMs = Math.round(performance.now() - started);
    if (answer.kind !== 'answered') return { outcome: answer.kind, statusCode: null, durationMs, error: answer.detail, response: null };
    const excerpt = answer.body.toString('utf8').replace(/\u0000/g, '');
    const outcome = answer.status >= 200 && answer.status < 300 ? 'succeeded' : 'failed';
    return { outcome, statusCode: answer.status, durationMs, error: null, response: excerpt || null };
  }

  close(): void {
    this.pool.close();
  }
}
