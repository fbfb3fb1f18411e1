/**
 * OpenTelemetry tracing, imported by bin/atrium.js before anything else, and only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set (without it nothing of the SDK is loaded). Spans of the HTTP
 * server, of Fastify's routes and hooks (@fastify/otel) and of pg queries are sent over OTLP/HTTP
 * (JSON) to `$OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces`; the standard OTEL_* variables apply
 * (OTEL_SERVICE_NAME, OTEL_BSP_SCHEDULE_DELAY, OTEL_TRACES_SAMPLER, ...). Only traces: metrics are
 * scraped from /metrics.
 */
import { register } from 'node:module';
import { trace } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import type { FastifyRequest } from 'fastify';
import { telemetry } from './hooks.js';

// `pg` is imported by ESM modules (db/connect.ts): its instrumentation needs the import hook, which
// must be in place before that import. Only pg goes through it; node:http is required by Fastify
// (CommonJS), which the require hook already sees.
register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include: ['pg'] } });

const fastifyOtel = new FastifyOtelInstrumentation();
const sdk = new NodeSDK({
  serviceName: process.env.OTEL_SERVICE_NAME || 'atrium',
  traceExporter: new OTLPTraceExporter(),
  metricReaders: [],
  logRecordProcessors: [],
  // Queries only within a request's trace: the workers' idle looks (queue/loops.ts) would otherwise each be a trace of their own.
  instrumentations: [new HttpInstrumentation(), new PgInstrumentation({ requireParentSpan: true }), fastifyOtel],
});
sdk.start();

telemetry.fastifyPlugin = fastifyOtel.plugin();
telemetry.traceIdOf = (request: FastifyRequest) =>
  (request.opentelemetry?.().span ?? trace.getActiveSpan())?.spanContext().traceId;
telemetry.shutdown = () => sdk.shutdown();
