import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type RunningCli } from '../helpers/cli.js';
import { freshDatabaseUrl, usingPostgres } from '../helpers/database.js';
import { TEST_SECRETS_KEY } from '../helpers/harness.js';

interface ReceivedSpan {
  scope: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
}

const SERVER_KIND = 2;

/**
 * An OTLP/HTTP receiver: takes what the exporter POSTs to /v1/traces (JSON, as the OTLP HTTP
 * exporter sends it; anything else is kept as refused) and lets the test wait for spans.
 */
async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const refused: string[] = [];
  const waiters = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const type = req.headers['content-type'] ?? '';
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !type.startsWith('application/json')) {
        refused.push(`${req.method} ${req.url} ${type}`);
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const resource of body.resourceSpans ?? []) {
        for (const scoped of resource.scopeSpans ?? []) {
          for (const s of scoped.spans ?? []) {
            const attributes = Object.fromEntries((s.attributes ?? []).map((a: { key: string; value: Record<string, unknown> }) => [a.key, Object.values(a.value)[0]]));
            spans.push({ scope: scoped.scope.name, name: s.name, kind: s.kind, traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId, attributes });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans, refused,
    /** Resolves once `enough(spans)` holds, checked at every export received. */
    until(enough: (spans: ReceivedSpan[]) => boolean): Promise<void> {
      return new Promise((resolve) => {
        const check = () => { if (enough(spans)) { waiters.delete(check); resolve(); } };
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The server's request log line of `url`, once it is printed. */
function logLineOf(server: RunningCli, url: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const look = () => {
      for (const line of server.stdout().split('\n')) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line);
        if (entry.msg === 'request' && entry.url === url) {
          server.child.stdout!.off('data', look);
          resolve(entry);
          return;
        }
      }
    };
    server.child.stdout!.on('data', look);
    look();
  });
}

describe('traces over OTLP/HTTP', () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let server: RunningCli;
  let dataDir: string;
  let token: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    database = await freshDatabaseUrl();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-trace-'));
    server = await startServe({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '50', OTEL_SERVICE_NAME: 'atrium-under-test',
      LOG_LEVEL: 'info', DATA_DIR: dataDir,
      ...(database.url ? { DATABASE_URL: database.url, SECRETS_KEY: TEST_SECRETS_KEY } : {}),
    });
    token = /admin API token: (\S+)/.exec(server.stdout())![1];
  });
  afterAll(async () => {
    if (server) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await receiver?.close();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('one request\'s spans (HTTP server, Fastify, and pg on PostgreSQL) reach the receiver under the trace id of its log line', async () => {
    const res = await fetch(`${server.url}/api/admin/roles?per_page=2`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const line = await logLineOf(server, '/api/admin/roles?per_page=2');
    expect(line).toMatchObject({ method: 'GET', status: 200 });
    const traceId = line.trace_id as string;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(traceId).not.toBe('0'.repeat(32));

    const ofTrace = () => receiver.spans.filter((s) => s.traceId === traceId);
    await receiver.until(() => ofTrace().some((s) => s.kind === SERVER_KIND)
      && ofTrace().some((s) => s.scope === '@fastify/otel' && s.name === 'request')
      && (!usingPostgres() || ofTrace().some((s) => s.scope.includes('instrumentation-pg'))));
    const spans = ofTrace();
    const root = spans.find((s) => s.kind === SERVER_KIND)!;
    expect(root).toMatchObject({ scope: '@opentelemetry/instrumentation-http', name: 'GET /api/admin/roles' });
    expect(root.parentSpanId ?? '').toBe('');
    expect(root.attributes['http.route']).toBe('/api/admin/roles');
    const request = spans.find((s) => s.scope === '@fastify/otel' && s.name === 'request')!;
    expect(request.parentSpanId).toBe(root.spanId);
    expect(spans.some((s) => s.scope === '@fastify/otel' && s.name.startsWith('handler'))).toBe(true);
    if (usingPostgres()) {
      const queries = spans.filter((s) => s.scope.includes('instrumentation-pg'));
      expect(queries.length).toBeGreaterThan(0);
      expect(queries.every((s) => spans.some((p) => p.spanId === s.parentSpanId))).toBe(true);
      // The workers' looks at the queues since the start (jobs, campaigns, webhooks, mail) made no trace of their own.
      expect(receiver.spans.filter((s) => s.scope.includes('instrumentation-pg') && !s.parentSpanId)).toEqual([]);
    }
    expect(receiver.refused).toEqual([]);
  });

  it('continues a trace the caller started (W3C traceparent)', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await fetch(`${server.url}/healthz`, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    expect(res.status).toBe(200);
    expect((await logLineOf(server, '/healthz')).trace_id).toBe(traceId);
    await receiver.until((spans) => spans.some((s) => s.traceId === traceId && s.kind === SERVER_KIND));
    expect(receiver.spans.find((s) => s.traceId === traceId && s.kind === SERVER_KIND)!.parentSpanId).toBe('00f067aa0ba902b7');
  });
});

describe('stopping a traced server', () => {
  it('sends the spans still buffered before the process exits (SIGTERM)', async () => {
    const receiver = await startOtlpReceiver();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-trace-'));
    try {
      // A batch would wait an hour: only the shutdown can send it.
      const server = await startServe({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '3600000', LOG_LEVEL: 'info', DATA_DIR: dataDir, DATABASE_URL: undefined });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const traceId = (await logLineOf(server, '/healthz')).trace_id;
      expect(receiver.spans).toEqual([]);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(receiver.spans.filter((s) => s.traceId === traceId).map((s) => s.kind)).toContain(SERVER_KIND);
    } finally {
      await receiver.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  const BIN = fileURLToPath(new URL('../../bin/atrium.js', import.meta.url));
  // Counts, when the process ends, the modules of the SDK and its instrumentations it loaded. The API
  // package (@opentelemetry/api, no-op without an SDK) is left out: prom-client loads it for exemplars.
  const COUNT = `data:text/javascript,${encodeURIComponent(`import m from 'node:module';
    process.on('exit', () => process.stderr.write('opentelemetry modules: '
      + Object.keys(m._cache).filter((k) => /@opentelemetry\\/(?!api\\/)|@fastify\\/otel|in-the-middle/.test(k)).length + '\\n'));`)}`;
  const loaded = (endpoint: string | undefined) => {
    const run = spawnSync(process.execPath, ['--import', COUNT, BIN, '--help'], {
      env: { PATH: process.env.PATH, ...(endpoint ? { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint } : {}) }, encoding: 'utf8',
    });
    return Number(/opentelemetry modules: (\d+)/.exec(run.stderr)![1]);
  };

  it('loads nothing of the OpenTelemetry SDK or its instrumentations (and does with it)', () => {
    expect(loaded(undefined)).toBe(0);
    expect(loaded('http://127.0.0.1:9')).toBeGreaterThan(0);
  });
});
