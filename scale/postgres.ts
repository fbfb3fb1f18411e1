import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../test/helpers/server.js';

const run = promisify(execFile);

/** A PostgreSQL server of the test's own, so that stopping it disturbs no other work on the machine. */
export interface PrivatePostgres {
  /** postgres://... of its `postgres` database. */
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** The newest PostgreSQL of Debian's packages on this machine. */
function binaries(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((x, y) => Number(x) - Number(y)) : [];
  if (!versions.length) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql)');
  return path.join(root, versions.at(-1)!, 'bin');
}

/**
 * initdb in a temporary folder and a postmaster on a free loopback port (trust auth, no fsync: a test
 * server). As root, the server runs as the `postgres` user, since PostgreSQL refuses to run as root.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binaries();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-pg-'));
  const data = path.join(folder, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await run('chown', ['postgres:postgres', folder]);
  const as = (command: string, args: string[]) => (asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args]) : run(path.join(bin, command), args));
  await as('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = async () => { await as('pg_ctl', ['-D', data, '-o', options, '-l', path.join(folder, 'log'), '-w', 'start']); };
  const stop = async () => { await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']); };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    close: async () => {
      await stop().catch(() => {});
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
