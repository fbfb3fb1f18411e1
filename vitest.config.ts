import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/helpers/one-query-per-connection.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for what a screen shows once its data arrives: 1 s (Vitest's default) was too short for a
    // browser journey on two busy cores (a segment's summary in words waits for two queries after the page loads).
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    maxWorkers: 2,
    // Each worker loads the server's modules once for all its files (each file still has its own database and app):
    // a fifth off the suite's time. Module-level state is therefore keyed by what is unique across databases.
    isolate: false,
    reporters: ['default'],
    sequence: { sequencer: LongestFirst },
  },
});
