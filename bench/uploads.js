// Private attachments (POST /api/customers/realms/{uid}/private_upload/answer), on PostgreSQL:
// 1. upload throughput in MB/s of one 50 MB file, a PDF (magic bytes checked on its first 64 KiB) and a text file
//    (checked whole as UTF-8 without markup), against writing the same bytes to disk with Node streams in this process,
//    and against a bare Fastify route that streams the same request to a file, in alternating rounds (best of each);
//    with the CPU time each side spent (the server's from /proc), which a loaded machine disturbs less than wall time;
// 2. the server's peak resident memory (sampled from /proc every 10 ms) during 10 concurrent uploads of 50 MB.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { adminApi, scratchPostgres, startServer, verdict } from './lib.js';

const MB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_UPLOAD_MB ?? 50) * MB;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENT = 10;
const CHUNK = 64 * 1024;

const sha256hex = (text) => createHash('sha256').update(text).digest('hex');

/** The file's content in 64 KiB chunks: a PDF header then random bytes, or lines of text. */
function contentOf(kind) {
  const chunks = [];
  for (let at = 0; at < SIZE; at += CHUNK) {
    const length = Math.min(CHUNK, SIZE - at);
    chunks.push(kind === 'pdf' ? randomBytes(length) : Buffer.alloc(length, 'a line of plain text, 42;17;3.5\n'));
  }
  if (kind === 'pdf') chunks[0] = Buffer.concat([Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'), chunks[0]]).subarray(0, CHUNK);
  return chunks;
}

/** Sends one multipart upload over plain http, streaming the chunks; answers the status and the seconds it took. */
function upload(url, cookie, name, chunks) {
  const boundary = `bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + SIZE + tail.length;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: 'POST', agent: false,
      headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': length },
    }, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode, body, seconds: (performance.now() - started) / 1000 }));
    });
    request.on('error', reject);
    pipeline(Readable.from([head, ...chunks, tail]), request).catch(reject);
  });
}

/**
 * Writes the chunks to a file with Node streams; answers the seconds it took. `flush` syncs the file before
 * it closes, as the server's storage does before it answers (an upload reported stored is on the disk).
 */
async function writeToDisk(folder, chunks, flush) {
  const file = path.join(folder, `disk-${randomBytes(4).toString('hex')}`);
  const started = performance.now();
  await pipeline(Readable.from(chunks), fs.createWriteStream(file, { flush }));
  const seconds = (performance.now() - started) / 1000;
  fs.rmSync(file);
  return seconds;
}

function memoryOf(pid, field = 'VmRSS') {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)[1]) * 1024;
}

/** CPU seconds (user and system) a process has used, from /proc (clock ticks of 1/100 s). */
function cpuOf(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The best (smallest) wall and CPU seconds of `rounds` runs of `run`, which answers its wall seconds; `cpu` reads the CPU clock it spends. */
class Best {
  wall = Infinity;
  cpu = Infinity;
  async time(run, cpu) {
    const before = cpu();
    this.wall = Math.min(this.wall, await run());
    this.cpu = Math.min(this.cpu, cpu() - before);
  }
}

const scratch = await scratchPostgres();
if (!scratch) throw new Error('PostgreSQL is not reachable: set DATABASE_URL');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-uploads-'));
const atrium = await startServer('atrium', { DATABASE_URL: scratch.url, DATA_DIR: dataDir });
try {
  const admin = adminApi(atrium);
  await admin('PUT', '/account', { upload_max_bytes: SIZE + MB });
  await admin('POST', '/realms', { uid: 'bench', name: 'Bench' });
  // A signed-in user: the rows the login page would write, with a session secret we know.
  const db = new pg.Client({ connectionString: scratch.url });
  await db.connect();
  const secret = randomBytes(32).toString('base64url');
  const { rows: [realm] } = await db.query("select id from realms where uid = 'bench'");
  const { rows: [user] } = await db.query("insert into realm_users (realm_id, email) values ($1, 'bench@example.com') returning id", [realm.id]);
  await db.query("insert into realm_sessions (realm_id, user_id, session_hash, expires_at) values ($1, $2, $3, now() + interval '1 day')", [realm.id, user.id, sha256hex(secret)]);
  await db.end();
  const cookie = `atrium_realm_bench=${secret}`;
  const url = `${atrium.url}/api/customers/realms/bench/private_upload/answer`;
  const remove = (uuid) => fetch(`${url}/${uuid}`, { method: 'DELETE', headers: { cookie } });

  const bare = await startServer('bare');
  const ownCpu = () => { const usage = process.cpuUsage(); return (usage.user + usage.system) / 1e6; };
  const rate = (seconds) => `${(SIZE / MB / seconds).toFixed(0)} MB/s`;
  const ms = (seconds) => `${Math.round(seconds * 1000)} ms`;
  console.log(`uploads: one ${SIZE / MB} MB file, best of ${ROUNDS} alternating rounds; the server on PostgreSQL, DATA_DIR on ${dataDir}; load average ${os.loadavg()[0].toFixed(1)}`);
  try {
    for (const kind of ['pdf', 'txt']) {
      const chunks = contentOf(kind);
      const [ours, plain, disk, cached] = [new Best(), new Best(), new Best(), new Best()];
      for (let round = 0; round < ROUNDS; round++) {
        await ours.time(async () => {
          const answer = await upload(url, cookie, `bench.${kind}`, chunks);
          if (answer.status !== 200) throw new Error(`upload answered ${answer.status}: ${answer.body}`);
          await remove(JSON.parse(answer.body).uuid);
          return answer.seconds;
        }, () => cpuOf(atrium.pid));
        await plain.time(async () => (await upload(`${bare.url}/upload`, cookie, `bench.${kind}`, chunks)).seconds, () => cpuOf(bare.pid));
        await disk.time(() => writeToDisk(dataDir, chunks, true), ownCpu);
        await cached.time(() => writeToDisk(dataDir, chunks, false), ownCpu);
      }
      console.log(`  ${kind}: upload ${rate(ours.wall)} (server CPU ${ms(ours.cpu)}); Node streams to disk, synced, ${rate(disk.wall)} (CPU ${ms(disk.cpu)}): `
        + `${Math.round((disk.wall / ours.wall) * 100)}% (target >= 50%); the same without the sync (to the page cache only) ${rate(cached.wall)}: `
        + `${Math.round((cached.wall / ours.wall) * 100)}%; bare Fastify route streaming the request to a file `
        + `${rate(plain.wall)} (server CPU ${ms(plain.cpu)}): ${Math.round((plain.wall / ours.wall) * 100)}%`);
      verdict(`upload of one ${SIZE / MB} MB ${kind} file`, { figure: rate(ours.wall), comparison: `${Math.round((disk.wall / ours.wall) * 100)}% of Node streams writing it to disk, synced (${rate(disk.wall)})`, target: '≥ 50%', met: disk.wall / ours.wall >= 0.5 });
    }
  } finally {
    await bare.stop();
  }

  const chunks = contentOf('pdf');
  const idle = memoryOf(atrium.pid);
  let peak = idle;
  const sampler = setInterval(() => { peak = Math.max(peak, memoryOf(atrium.pid)); }, 10);
  const started = performance.now();
  const answers = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => upload(url, cookie, `bench-${i}.pdf`, chunks)));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, memoryOf(atrium.pid));
  const failed = answers.filter((a) => a.status !== 200).length;
  for (const answer of answers) if (answer.status === 200) await remove(JSON.parse(answer.body).uuid);
  console.log(`  ${CONCURRENT} concurrent uploads of ${SIZE / MB} MB: ${(CONCURRENT * SIZE / MB / seconds).toFixed(0)} MB/s in all; server RSS `
    + `${(idle / MB).toFixed(0)} MB idle, peak ${(peak / MB).toFixed(0)} MB (target < 200 MB), high-water mark since start ${(memoryOf(atrium.pid, 'VmHWM') / MB).toFixed(0)} MB${failed ? `, ${failed} failed` : ''}`);
  verdict(`server peak RSS during ${CONCURRENT} concurrent ${SIZE / MB} MB uploads`, { figure: `${(peak / MB).toFixed(0)} MB`, comparison: `${(idle / MB).toFixed(0)} MB idle before them`, target: '< 200 MB', met: peak < 200 * MB });
  const left = fs.readdirSync(path.join(dataDir, 'uploads'), { recursive: true }).filter((name) => !fs.statSync(path.join(dataDir, 'uploads', name)).isDirectory());
  if (left.length) console.log(`  files left in the store: ${left.length}`);
} finally {
  await atrium.stop();
  await scratch.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
