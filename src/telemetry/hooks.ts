import type { FastifyPluginCallback, FastifyRequest } from 'fastify';

/**
 * What the tracing module (telemetry/tracing.ts) hands the rest of the server when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set. Everything stays null otherwise: the OpenTelemetry SDK is then
 * never imported, and the app only tests these for null.
 */
export const telemetry: {
  /** @fastify/otel's plugin, registered on the app before any route. */
  fastifyPlugin: FastifyPluginCallback | null;
  /** The trace id of a request, for its log line. */
  traceIdOf: ((request: FastifyRequest) => string | undefined) | null;
  /** Sends the spans still buffered; called when the server stops. */
  shutdown: (() => Promise<void>) | null;
} = { fastifyPlugin: null, traceIdOf: null, shutdown: null };
