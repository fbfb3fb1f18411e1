import net, { type AddressInfo } from 'node:net';
import type { Harness } from './harness.js';

/** Puts a harness's app on a real loopback port (for browsers and real HTTP clients) and returns its base address. */
export async function listen(h: Harness): Promise<string> {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  // A harness started with BASE_URL on localhost (passkeys need a host name) keeps that name; any other stays on 127.0.0.1.
  const host = new URL(h.ctx.config.baseUrl).hostname === 'localhost' ? 'localhost' : '127.0.0.1';
  const url = `http://${host}:${(h.app.server.address() as AddressInfo).port}`;
  // Links, issuers and redirects are built from the base address, which is known only now.
  h.ctx.config.baseUrl = url;
  return url;
}

/** A loopback port free right now (for a process that must be told its port before it starts). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
