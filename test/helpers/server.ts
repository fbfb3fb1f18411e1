import type { AddressInfo } from 'node:net';
import type { Harness } from './harness.js';

/** Puts a harness's app on a real loopback port (for browsers and real HTTP clients). */
export async function listen(h: Harness): Promise<string> {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
}
