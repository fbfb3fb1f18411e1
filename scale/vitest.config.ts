import { defineConfig } from 'vitest/config';

// `npm run scale-test`: the scale-out and fault tests against real processes on PostgreSQL (DATABASE_URL, default the
// local server), one file at a time: each starts its own instances, proxy, SMTP listener and S3-compatible server.
// load.test.ts runs LOAD_SECONDS (default 60) of mixed load; fuzz.test.ts fuzzes the catalogs for FUZZ_MINUTES (default 10).
export default defineConfig({
  test: {
    include: ['scale/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    reporters: ['default'],
  },
});
