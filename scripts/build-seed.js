// Run by `npm run build` (and so by `npm install`): writes the empty embedded cluster a first start copies.
// It is remade only when the installed PGlite or the migrations change.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { SEED_ARCHIVE, writeSeedCluster } from '../dist/db/seed.js';
import { SEED_DIR } from '../dist/db/seed-copy.js';
import { migrationsFolder } from '../dist/db/migrate.js';

const manifest = new URL('../node_modules/@electric-sql/pglite/package.json', import.meta.url);
const migrations = fs.readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql')).sort();
const version = JSON.stringify({
  layout: 4,
  pglite: JSON.parse(fs.readFileSync(manifest, 'utf8')).version,
  // By content: a migration regenerated under the same name and size is still a new migration.
  migrations: migrations.map((f) => [f, createHash('sha256').update(fs.readFileSync(`${migrationsFolder}/${f}`)).digest('hex')]),
});
const marker = `${SEED_DIR}.version`;
const current = fs.existsSync(marker) && fs.existsSync(SEED_ARCHIVE) && fs.readFileSync(marker, 'utf8') === version;
if (!current) {
  await writeSeedCluster(migrationsFolder);
  fs.writeFileSync(marker, version);
}
