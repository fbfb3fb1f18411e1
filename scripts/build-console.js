// Run by `npm run build` and before `npm test`: builds the admin console into dist/admin, only when its sources
// (or the typed client it imports) changed since the last build, so a test run after an install does not build it twice.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.join(import.meta.dirname, '..');
const inputs = ['packages/console/src', 'packages/console/public', 'packages/console/index.html', 'packages/console/vite.config.ts',
  'packages/console/package.json', 'packages/console/tsconfig.json', 'packages/client/dist'];
const marker = path.join(root, 'dist/admin/.sources');

const hash = createHash('sha256');
const add = (relative) => {
  const file = path.join(root, relative);
  if (!fs.existsSync(file)) return;
  if (fs.statSync(file).isDirectory()) {
    for (const name of fs.readdirSync(file).sort()) add(path.join(relative, name));
  } else if (!relative.endsWith('.tsbuildinfo')) {
    hash.update(`${relative}\0`).update(fs.readFileSync(file));
  }
};
inputs.forEach(add);
const sources = hash.digest('hex');

if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === sources) {
  console.log('console: up to date (dist/admin)');
} else {
  execFileSync('npm', ['run', 'build', '-w', '@atrium/console'], { cwd: root, stdio: 'inherit' });
  fs.writeFileSync(marker, sources);
}
