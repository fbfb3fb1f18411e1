// The comparison every benchmark measures against: a bare Fastify route (and, for uploads, a bare route
// that streams the request body to a file and removes it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import Fastify from 'fastify';

const app = Fastify({ bodyLimit: 1024 * 1024 * 1024 });
app.get('/', async () => ({ status: 'ok' }));
// GET /page: fixed bytes a benchmark hands over (BARE_PAGE, with BARE_PAGE_HEADERS as JSON), e.g. a site's
// rendered page, so that Atrium serving those bytes is compared with a route doing nothing else.
const page = process.env.BARE_PAGE;
const pageHeaders = JSON.parse(process.env.BARE_PAGE_HEADERS ?? '{"content-type":"text/html; charset=utf-8"}');
if (page !== undefined) app.get('/page', (_request, reply) => reply.headers(pageHeaders).send(page));
app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
app.post('/upload', async (request) => {
  const file = path.join(os.tmpdir(), `bare-upload-${randomUUID()}`);
  await pipeline(request.raw, fs.createWriteStream(file, { flush: true }));
  fs.rmSync(file);
  return { status: 'ok' };
});
// POST /row: inserts the JSON body as one row (BARE_DATABASE_URL), what the forms benchmark compares a response with.
if (process.env.BARE_DATABASE_URL) {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: process.env.BARE_DATABASE_URL, max: 10 });
  await pool.query('create table if not exists bare_rows (id serial primary key, body jsonb not null, created_at timestamptz not null default now())');
  app.post('/row', async (request, reply) => {
    await pool.query('insert into bare_rows (body) values ($1)', [JSON.stringify(request.body)]);
    return reply.code(201).send({ status: 'received' });
  });
  app.addHook('onClose', () => pool.end());
}
await app.listen({ port: 0, host: '127.0.0.1' });
process.send({ url: `http://127.0.0.1:${app.server.address().port}` });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
