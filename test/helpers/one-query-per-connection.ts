import { afterAll } from 'vitest';

// pg 8 warns (once a process), and pg 9 refuses, when a connection is given a query while it runs
// another: parallel queries inside one transaction. Any test that makes the server do so fails.
// The list lives on globalThis: this file runs again for each test file of a worker.
const WARNING = 'already executing a query';
const shared = globalThis as { parallelQueries?: string[] };
if (!shared.parallelQueries) {
  const seen: string[] = shared.parallelQueries = [];
  process.on('warning', (warning) => {
    if (warning.message.includes(WARNING)) seen.push(warning.stack ?? warning.message);
  });
}

afterAll(() => {
  const found = shared.parallelQueries!.splice(0);
  if (found.length) throw new Error(`parallel queries on one connection (a transaction's):\n${found.join('\n')}`);
});
