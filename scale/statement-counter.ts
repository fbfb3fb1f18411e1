import net, { type AddressInfo } from 'node:net';

export interface StatementCounter {
  /** postgres://... through the counter, to the same database. */
  url: string;
  /** Statements sent since the last reset: simple queries ('Q') and executions of the extended protocol ('E'). */
  count(): number;
  reset(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of PostgreSQL that reads the frontend messages each connection sends and counts the
 * statements among them: what one server process asks of the database, whatever its driver or pool does.
 * Every message after the startup packet is a type byte and a length (PostgreSQL's protocol 3).
 */
export async function countStatements(databaseUrl: string): Promise<StatementCounter> {
  const target = new URL(databaseUrl);
  let statements = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let buffered = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        if (!started) {
          if (buffered.length < 4) break;
          const length = buffered.readInt32BE(0);
          if (buffered.length < length) break;
          // An SSLRequest (80877103) is answered 'N' and followed by the real startup packet.
          if (buffered.readInt32BE(4) !== 80877103) started = true;
          buffered = buffered.subarray(length);
          continue;
        }
        if (buffered.length < 5) break;
        const length = buffered.readInt32BE(1);
        if (buffered.length < length + 1) break;
        const type = String.fromCharCode(buffered[0]);
        if (type === 'Q' || type === 'E') statements += 1;
        buffered = buffered.subarray(length + 1);
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const end = () => { client.destroy(); upstream.destroy(); sockets.delete(client); sockets.delete(upstream); };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    count: () => statements,
    reset: () => { statements = 0; },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
