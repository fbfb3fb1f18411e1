import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Proxy {
  url: string;
  /** How many answers each upstream gave, by its name. */
  served: Map<string, number>;
  close(): Promise<void>;
}

export interface Upstream {
  name: string;
  port: number;
}

/**
 * Hop-by-hop headers (RFC 9110 7.6.1) describe one connection and are not passed on. Forwarding the upstream's
 * `keep-alive: timeout=72` told the load generator that the proxy's own sockets stay open 72 s, while the proxy closes
 * them after 5 idle seconds: a request sent on a socket as the proxy closed it was reset (ECONNRESET, "other side
 * closed"), the requests lost under load. nginx and HAProxy drop these headers too.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
const endToEnd = (headers: http.IncomingHttpHeaders) => Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));

/** How long an upstream that refused a connection is passed over. */
const DEAD_FOR_MS = 1000;

/**
 * A small round-robin reverse proxy, the load balancer of the scale test: each request goes to the next
 * upstream, streamed both ways, its answer marked `x-atrium-upstream`. An upstream that refuses the
 * connection (killed) is passed over for a second; a request without a body is then sent to the next one,
 * one with a body (already on its way) answers 502, as nginx does for non-idempotent requests.
 */
export async function startProxy(upstreams: Upstream[]): Promise<Proxy> {
  const served = new Map<string, number>();
  const deadUntil = new Map<string, number>();
  // Idle upstream connections are given up after 60 s, before Atrium's 72 s, as docs/operations.md asks of nginx and
  // HAProxy: kept longer, a request after a minute's pause (the campaign test's) went out on a connection Atrium was
  // closing, and was reset.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256, timeout: 60_000 });
  let next = 0;
  const pick = (): Upstream => {
    for (let i = 0; i < upstreams.length; i++) {
      const upstream = upstreams[next++ % upstreams.length];
      if ((deadUntil.get(upstream.name) ?? 0) <= Date.now()) return upstream;
    }
    return upstreams[next++ % upstreams.length];
  };

  const server = http.createServer((request, response) => {
    const hasBody = !['GET', 'HEAD', 'OPTIONS', 'DELETE'].includes(request.method ?? 'GET');
    const send = (upstream: Upstream, triesLeft: number) => {
      let dropped = false;
      const outgoing = http.request({
        host: '127.0.0.1', port: upstream.port, method: request.method, path: request.url, agent,
        headers: { ...endToEnd(request.headers), 'x-forwarded-for': request.socket.remoteAddress ?? '127.0.0.1' },
      }, (answer) => {
        served.set(upstream.name, (served.get(upstream.name) ?? 0) + 1);
        response.writeHead(answer.statusCode ?? 502, { ...endToEnd(answer.headers), 'x-atrium-upstream': upstream.name });
        answer.pipe(response);
        answer.on('error', () => response.destroy());
        // An answer before the whole body (a 401 or 413 up front): the upstream has no use for the rest; as nginx, the
        // proxy reads and drops it rather than leave the client stalled behind a connection no one reads.
        answer.on('end', () => {
          if (request.complete) return;
          dropped = true;
          request.unpipe(outgoing);
          request.resume();
          outgoing.destroy();
        });
      });
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        if (dropped) return;
        if (error.code === 'ECONNREFUSED') deadUntil.set(upstream.name, Date.now() + DEAD_FOR_MS);
        if (error.code === 'ECONNREFUSED' && !hasBody && triesLeft > 0) return send(pick(), triesLeft - 1);
        if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain', 'x-atrium-upstream': upstream.name }).end(`upstream ${upstream.name}: ${error.code ?? error.message}`);
        else response.destroy();
      });
      if (hasBody) request.pipe(outgoing);
      else outgoing.end();
    };
    send(pick(), upstreams.length - 1);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: () => new Promise((resolve) => { agent.destroy(); server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
