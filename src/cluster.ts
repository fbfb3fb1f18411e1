import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config.js';
import { requireSecretsKey } from './security/secrets-key.js';
import { createContext, createLogger, createOwner, openMigrated } from './server.js';

/**
 * `atrium serve` with WORKERS above 1, in the primary process: migrates and creates the owner once,
 * then forks the server processes, which share the port (node:cluster hands each connection to one).
 * A worker that dies while serving is replaced; one that dies before it listens stops the whole (a
 * worker that cannot start would only die again). SIGTERM or SIGINT is passed on to every worker,
 * each of which closes gracefully; resolves with the exit code once all have ended.
 */
export async function serveWorkers(config: Config, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  requireSecretsKey(config);
  const log = createLogger(config);
  const database = await openMigrated(config);
  try {
    const firstStart = await createOwner(createContext(config, database, createLogger({ ...config, logLevel: 'silent' })));
    if (firstStart.length) out.write(`${firstStart.join('\n')}\n`);
  } finally {
    await database.close();
  }

  let stopping = false;
  let exitCode = 0;
  const listening = new Set<Worker>();
  const fork = () => {
    const worker = cluster.fork();
    worker.once('listening', () => listening.add(worker));
  };
  const stop = (code: number) => {
    exitCode ||= code;
    if (stopping) return;
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  return new Promise((resolve) => {
    cluster.on('exit', (worker, code, signal) => {
      const wasListening = listening.delete(worker);
      if (!stopping) {
        log.error({ pid: worker.process.pid, code, signal }, wasListening ? 'a server process ended; starting another' : 'a server process could not start');
        if (wasListening) fork();
        else stop(1);
      }
      if (stopping && Object.keys(cluster.workers ?? {}).length === 0) resolve(exitCode);
    });
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(0));
    for (let i = 0; i < config.workers; i++) fork();
  });
}
