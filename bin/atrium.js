#!/usr/bin/env node
// Tracing, when asked for, is set up before any other module loads (its hooks must see node:http and pg load).
if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) await import('../dist/telemetry/tracing.js');
const { main } = await import('../dist/cli.js');

main(process.argv.slice(2)).then(
  (code) => { if (typeof code === 'number') process.exitCode = code; },
  (err) => { console.error(`atrium: ${err instanceof Error ? err.message : String(err)}`); process.exit(1); },
);
