import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { fuzzCatalogs, summaryOf } from './fuzzer.js';
import { harnessTarget } from './target.js';

// `npm test` runs a fixed seed and count; `npm run fuzz` a random seed (printed, to replay with FUZZ_SEED) and many runs.
// `npm run scale-test` runs the same fuzzer over HTTP against two instances (scale/fuzz.test.ts).
const SEED = process.env.FUZZ_SEED === 'random' ? Date.now() % 2 ** 31 : Number(process.env.FUZZ_SEED ?? 20240611);
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);

describe('the catalog fuzzer', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  it(`answers every operation of the four catalogs as documented (seed ${SEED}, ${RUNS} runs per operation)`, async () => {
    console.log(`catalog fuzzer: seed ${SEED}, ${RUNS} runs per operation (replay with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS})`);
    const options = { seed: SEED, runs: RUNS };
    const result = await fuzzCatalogs(harnessTarget(h), options);
    console.log(summaryOf(result, options));
    expect(result.operations).toBeGreaterThan(40);
    expect(result.problems, `replay with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}`).toEqual([]);
  }, 120_000 + RUNS * 5_000);
});
