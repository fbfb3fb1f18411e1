// Run by `npm run build` (and so by `npm install`): writes the empty embedded cluster a first start copies.
// It is remade only when the installed PGlite or the migrations change.
import fs from 'node:fs';
import { SEED_ARCHIVE, SEED_DIR, writeSeedCluster } from '../dist/db/seed.js';
import { migrationsFolder } from '../dist/db/migrate.js';

const manifest = new URL('../node_modules/@electric-sql/pglite/package.json', import.meta.url);
const migrations = fs.readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql')).sort();
const version = JSON.stringify({
  layout: 2,
  pglite: JSON.parse(fs.readFileSync(manifest, 'utf8')).version,
  migrations: migrations.map((f) => [f, fs.statSync(`${migrationsFolder}/${f}`).size]),
});
const marker = `${SEED_DIR}.version`;
const current = fs.existsSync(marker) && fs.existsSync(SEED_ARCHIVE) && fs.readFileSync(marker, 'utf8') === version;
if (!current) {
  await writeSeedCluster(migrationsFolder);
  fs.writeFileSync(marker, version);
}
