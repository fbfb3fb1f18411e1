import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzCatalogs, summaryOf } from '../test/fuzz/fuzzer.js';
import { startCluster, type Cluster } from './cluster.js';
import { clusterTarget } from './http-target.js';

// The catalog fuzzer of `npm test`, over HTTP against two instances behind the proxy, for FUZZ_MINUTES (default 10, the
// issue's run; FUZZ_MINUTES=1 for a quick look): rounds of FUZZ_RUNS requests per operation, each round with a new seed.
const MINUTES = Number(process.env.FUZZ_MINUTES ?? 10);
const SEED = process.env.FUZZ_SEED === 'random' || !process.env.FUZZ_SEED ? Date.now() % 2 ** 31 : Number(process.env.FUZZ_SEED);
const RUNS = Number(process.env.FUZZ_RUNS ?? 10);

describe(`the catalog fuzzer against two instances for ${MINUTES} minute(s)`, () => {
  let c: Cluster;
  beforeAll(async () => { c = await startCluster(2); });
  afterAll(async () => { await c?.close(); });

  it('every answer is one the catalogs document, none a 5xx, none missing', async () => {
    const options = { seed: SEED, runs: RUNS, until: Date.now() + MINUTES * 60_000 };
    console.log(`catalog fuzzer over HTTP: seed ${SEED}, ${RUNS} runs per operation per round, ${MINUTES} minute(s)`);
    const result = await fuzzCatalogs(clusterTarget(c), options);
    console.log(`${summaryOf(result, options)}; served by ${JSON.stringify(Object.fromEntries(c.proxy.served))}`);
    if (result.problems.length) console.log(result.problems.join('\n'));
    const fivexx = [...result.statuses].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0);
    expect(result.fuzzed).toBe(result.operations);
    expect(fivexx).toBe(0);
    expect(result.problems, `replay with the FUZZ_SEED shown and FUZZ_RUNS=${RUNS}`).toEqual([]);
  }, MINUTES * 60_000 + 300_000);
});
