import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from './cluster.js';
import { LoadRecorder } from './load-recorder.js';
import { draw, prepareLoad, type LoadWorld } from './load-scenarios.js';

// A bounded mixed load through the proxy against two instances: LOAD_SECONDS (default 60) at LOAD_CONNECTIONS concurrent
// clients (default 100), each a closed loop of scenarios drawn by weight (load-scenarios.ts). The load generator and the
// proxy share this process, and the machine's cores with the servers and PostgreSQL: the figures are this machine's.
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 100);

/** A small seeded generator (mulberry32), so that each worker's sequence of scenarios is the same run after run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

describe(`${CONNECTIONS} concurrent clients for ${SECONDS} s against two instances`, () => {
  let c: Cluster;
  let world: LoadWorld;
  beforeAll(async () => {
    c = await startCluster(2);
    world = await prepareLoad(c, new LoadRecorder(), CONNECTIONS);
  }, 300_000);
  afterAll(async () => { await c?.close(); });

  it('sign-ins, token exchanges, /me, /events, content listings and uploads: no 5xx, every request answered within 10 s', async () => {
    const load = new LoadRecorder();
    // The generator's own lag (it shares its event loop with the proxy) is part of every figure: it is printed with them.
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const started = Date.now();
    const deadline = started + SECONDS * 1000;
    await Promise.all(Array.from({ length: CONNECTIONS }, async (_, i) => {
      const random = seeded(i + 1);
      const account = world.accounts[i % world.accounts.length];
      while (Date.now() < deadline) await draw(random).run(load, world, account, random);
    }));
    const elapsed = (Date.now() - started) / 1000;
    lag.disable();
    // The histogram holds the time between ticks of its 10 ms timer: how late a tick came is the rest.
    const late = (p: number) => Math.max(0, lag.percentile(p) / 1e6 - 10).toFixed(0);
    const figures = load.figures();
    console.log(`${CONNECTIONS} clients, ${elapsed.toFixed(1)} s through the proxy (served ${JSON.stringify(Object.fromEntries(c.proxy.served))}), `
      + `${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}, generator and proxy event loop delay `
      + `p50 ${late(50)} ms p99 ${late(99)} ms:\n${load.table(elapsed)}`);
    if (load.lostExamples.length) console.log(`lost:\n${load.lostExamples.join('\n')}`);

    expect(load.inFlight).toBe(0);
    expect(figures.filter((row) => row.outcomes.lost), 'requests unanswered within 10 s').toEqual([]);
    expect(figures.filter((row) => Object.keys(row.outcomes).some((status) => Number(status) >= 500)), 'routes that answered 5xx').toEqual([]);
    // Each route did its work: most of its answers are successes (a sign-in 303, an authorize 302, a listing 200...).
    expect(figures.length).toBe(9);
    for (const row of figures) {
      const ok = Object.entries(row.outcomes).filter(([status]) => Number(status) < 400).reduce((sum, [, n]) => sum + n, 0);
      expect(ok / row.requests, `${row.route}: ${JSON.stringify(row.outcomes)}`).toBeGreaterThan(0.99);
    }
  }, SECONDS * 1000 + 120_000);
});
