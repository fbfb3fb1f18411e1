import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { ipLiteralOf, isPrivateAddress } from './addresses.js';

/**
 * Every request the server makes to an address an admin or a user chose (webhooks, identity
 * providers, logout URLs) goes through `outboundRequest`: unless OUTBOUND_ALLOW_PRIVATE=1 it refuses a
 * literal address in a private range and resolves names with a lookup that refuses any private
 * answer, and that lookup is the one the connection uses (no second resolution to rebind). It follows
 * no redirect, ends at `timeoutMs`, and drops the connection past `maxBytes` of answer.
 *
 * What it says of a failure (`detail`) is for the server's log or the owner of the target: a caller
 * answering someone who could use it to probe addresses says only that the target was not reached.
 */

export const MAX_URL_LENGTH = 2048;

/**
 * Why an address cannot be requested, or null when it can (resolution is checked again at each
 * request): http(s), no credentials, and not an IP address in a private range.
 */
export function targetProblem(raw: string, allowPrivate: boolean): string | null {
  if (raw.length > MAX_URL_LENGTH) return `is too long (maximum is ${MAX_URL_LENGTH} characters)`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.username || url.password) return 'must not carry credentials (user:password@)';
  if (!url.hostname) return 'has no host';
  const literal = ipLiteralOf(url);
  if (literal && !allowPrivate && isPrivateAddress(literal)) {
    return 'is in a private, loopback or link-local address range (allowed only with OUTBOUND_ALLOW_PRIVATE=1)';
  }
  return null;
}

const PRIVATE_CODE = 'ERR_OUTBOUND_PRIVATE_ADDRESS';

class PrivateAddress extends Error {
  readonly code = PRIVATE_CODE;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup, refusing a name any of whose addresses is private (127.0.0.1, 169.254.169.254, ...). */
function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(new PrivateAddress(`${hostname} resolves to ${bad.address}, a private, loopback or link-local address`), []);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}

/** Kept-alive connections for a sender that makes many requests (one per sending process). */
export class ConnectionPool {
  readonly http = new http.Agent({ keepAlive: true, maxSockets: 64 });
  readonly https = new https.Agent({ keepAlive: true, maxSockets: 64 });

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

export interface OutboundOptions {
  allowPrivate: boolean;
  method: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs: number;
  /** Past this many bytes of answer the connection is dropped. */
  maxBytes: number;
  /** How much of the answer's body is kept (default: all of it, up to maxBytes). */
  keepBytes?: number;
  signal?: AbortSignal;
  pool?: ConnectionPool;
}

export type OutboundResult =
  | { kind: 'answered'; status: number; headers: http.IncomingHttpHeaders; body: Buffer; complete: boolean }
  | { kind: 'refused' | 'timeout' | 'error'; detail: string };

export function outboundRequest(rawUrl: string, options: OutboundOptions): Promise<OutboundResult> {
  const { allowPrivate, method, headers = {}, body, timeoutMs, maxBytes, keepBytes = maxBytes, signal, pool } = options;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return Promise.resolve({ kind: 'error', detail: 'The URL cannot be parsed' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.resolve({ kind: 'refused', detail: 'Only http and https are requested' });
  const literal = ipLiteralOf(url);
  if (!allowPrivate && literal && isPrivateAddress(literal)) {
    return Promise.resolve({ kind: 'refused', detail: `${literal} is a private, loopback or link-local address` });
  }
  const secure = url.protocol === 'https:';
  return new Promise((resolve) => {
    let done = false;
    const finish = (value: OutboundResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      resolve(value);
    };
    const request = (secure ? https : http).request(url, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) },
      ...(pool ? { agent: secure ? pool.https : pool.http } : {}),
      ...(allowPrivate ? {} : { lookup: guardedLookup as never }),
    }, (answer) => {
      const chunks: Buffer[] = [];
      let read = 0;
      let kept = 0;
      answer.on('data', (chunk: Buffer) => {
        if (kept < keepBytes) {
          chunks.push(chunk);
          kept += chunk.length;
        }
        read += chunk.length;
        if (read > maxBytes) answer.destroy();
      });
      // Redirects are not followed: the target named is the one that must answer.
      const settle = () => finish({
        kind: 'answered', status: answer.statusCode ?? 0, headers: answer.headers,
        body: Buffer.concat(chunks).subarray(0, keepBytes), complete: answer.complete && read <= maxBytes,
      });
      answer.on('end', settle);
      answer.on('close', settle);
      answer.on('error', settle);
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish({ kind: 'timeout', detail: `No answer within ${timeoutMs / 1000} s` });
    }, timeoutMs);
    const abort = () => {
      request.destroy();
      finish({ kind: 'timeout', detail: 'The request was aborted' });
    };
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort);
    request.on('error', (err: NodeJS.ErrnoException) => {
      finish(err.code === PRIVATE_CODE ? { kind: 'refused', detail: err.message } : { kind: 'error', detail: err.message.slice(0, 500) });
    });
    request.end(body);
  });
}

/** A request that did not get a whole answer; `detail` is for the log only. */
export class OutboundFailure extends Error {
  constructor(readonly kind: 'refused' | 'timeout' | 'error' | 'too_large', readonly detail: string) {
    super(`the request was not answered (${kind})`);
  }
}

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
}

type FetchBody = string | URLSearchParams | Uint8Array | null | undefined;
type FetchInit = { method: string; headers: Record<string, string>; body?: unknown; signal?: AbortSignal };

/** An answer that carries no body under the Fetch API. */
const BODILESS = new Set([101, 204, 205, 304]);

/**
 * A fetch over `outboundRequest` for libraries that take one (openid-client's `customFetch`): an
 * answer is handed over only whole, a failure is an OutboundFailure.
 */
export function outboundFetch(allowPrivate: boolean, limits: FetchLimits) {
  return async (url: string, init: FetchInit): Promise<Response> => {
    const raw = init.body as FetchBody;
    if (raw !== undefined && raw !== null && typeof raw !== 'string' && !(raw instanceof URLSearchParams) && !(raw instanceof Uint8Array)) {
      throw new OutboundFailure('error', 'a streamed request body is not supported');
    }
    const body = raw === undefined || raw === null ? undefined : raw instanceof Uint8Array ? Buffer.from(raw) : String(raw);
    const result = await outboundRequest(url, { allowPrivate, method: init.method, headers: init.headers, body, signal: init.signal, ...limits });
    if (result.kind !== 'answered') throw new OutboundFailure(result.kind, result.detail);
    if (!result.complete) throw new OutboundFailure('too_large', `the answer was cut or is larger than ${limits.maxBytes} bytes`);
    const headers = new Headers();
    for (const [name, value] of Object.entries(result.headers)) {
      for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
    }
    if (result.status < 200 || result.status > 599) throw new OutboundFailure('error', `unexpected status ${result.status}`);
    return new Response(BODILESS.has(result.status) ? null : new Uint8Array(result.body), { status: result.status, headers });
  };
}
