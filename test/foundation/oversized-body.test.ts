import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { listen } from '../helpers/server.js';

/** Writes raw requests on one connection and answers everything the server sent until it closed or went quiet. */
async function exchange(base: string, data: Buffer[]): Promise<string> {
  const { hostname, port } = new URL(base);
  const socket = net.connect(Number(port), hostname);
  let received = '';
  socket.on('data', (chunk) => { received += chunk.toString('latin1'); });
  const ended = new Promise<void>((resolve) => { socket.on('close', () => resolve()); socket.on('error', () => resolve()); });
  for (const chunk of data) socket.write(chunk);
  await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 3000))]);
  socket.destroy();
  return received;
}

describe('a body over the limit', () => {
  let h: Harness;
  let base: string;
  beforeAll(async () => { h = await startHarness(); base = await listen(h); });
  afterAll(async () => { await h?.close(); });

  it('is answered 413 and read to its end, the connection kept for the next request (no reset under a client still sending)', async () => {
    const body = Buffer.from(JSON.stringify({ name: 'x'.repeat(3 * 1024 * 1024) }));
    const received = await exchange(base, [
      Buffer.from(`PUT /api/admin/roles/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.ownerToken}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`),
      body,
      Buffer.from('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    ]);
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toContain('Request body is too large');
    expect(received).toMatch(/HTTP\/1\.1 200 OK[\s\S]*"status":"ok"/);
  });
});
