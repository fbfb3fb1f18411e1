// Atrium itself, as `atrium serve` runs it, on the database the environment names; sends its address
// and the owner's admin token to the benchmark.
import { Writable } from 'node:stream';
import { loadWithoutFetch } from '../../dist/shared/load-without-fetch.js';

const [{ loadConfig }, { serve }] = await loadWithoutFetch(() => Promise.all([import('../../dist/config.js'), import('../../dist/server.js')]));

let printed = '';
const out = new Writable({ write(chunk, _enc, done) { printed += chunk; done(); } });
// PostgreSQL needs a secrets key (SECRETS_KEY); a benchmark's scratch database stores no secret worth keeping.
const env = { SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'), ...process.env, PORT: '0' };
const server = await serve(loadConfig(env), env, out);
const token = /admin API token: (\S+)/.exec(printed)?.[1];
process.send({ url: server.url, token, pid: process.pid });
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
