// npm run bench -- <name>: runs bench/<name>.js. Each benchmark prints its figures next to a
// comparison measured in the same run, since only ratios hold on a noisy machine.
import fs from 'node:fs';

const name = process.argv[2];
const available = fs.readdirSync(new URL('.', import.meta.url))
  .filter((f) => f.endsWith('.js') && !['run.js', 'lib.js'].includes(f)).map((f) => f.slice(0, -3));
if (!name || !available.includes(name)) {
  console.error(`usage: npm run bench -- <${available.join('|')}>`);
  process.exit(2);
}
await import(`./${name}.js`);
