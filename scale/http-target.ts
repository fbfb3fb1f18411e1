import http from 'node:http';
import type { FuzzTarget, TargetAnswer } from '../test/fuzz/target.js';
import type { Cluster } from './cluster.js';

/** How long a request may go unanswered before it counts as lost. */
const ANSWER_WITHIN_MS = 15_000;

/**
 * The cluster as a fuzz target: each request over a real socket to the proxy, its path sent byte for byte
 * (no URL parser resolves `%2E%2E` or mends a broken escape on the way), the owner's credentials from `bootstrap`.
 */
export function clusterTarget(c: Cluster): FuzzTarget {
  const base = new URL(c.proxy.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    ownerId: c.ownerId,
    ownerToken: c.token,
    freshOwnerToken: () => c.freshOwnerToken(),
    // Node's HTTP parser (the proxy's, or an instance's) refuses a request line and headers past 16 KiB with a bare 431.
    transportStatuses: [431],
    request: ({ method, url, headers = {}, payload }) => new Promise<TargetAnswer>((resolve, reject) => {
      const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
      const outgoing = http.request({
        host: base.hostname, port: base.port, method, path: url, agent, timeout: ANSWER_WITHIN_MS,
        headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const setCookies = res.headers['set-cookie'] ?? [];
          resolve({
            statusCode: res.statusCode ?? 0, headers: res.headers, body: text, json: () => JSON.parse(text),
            cookies: setCookies.map((line) => {
              const pair = line.split(';')[0];
              return { name: pair.slice(0, pair.indexOf('=')), value: pair.slice(pair.indexOf('=') + 1) };
            }),
          });
        });
      });
      outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${ANSWER_WITHIN_MS / 1000} s`)));
      outgoing.on('error', (error) => reject(new Error(`${method} ${url.slice(0, 200)}: ${error.message}`)));
      outgoing.end(body);
    }),
  };
}
