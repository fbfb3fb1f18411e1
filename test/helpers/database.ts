import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import type { Database } from '../../src/db/connect.js';
import { embeddedDatabase } from '../../src/db/embedded.js';
import { embeddedAssets } from '../../src/db/embedded-assets.js';
import { loadSeedArchive } from '../../src/db/seed.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PostgreSQL database made once per run (test/global-setup.ts), copied for each test file. */
    templateDatabase: string | undefined;
  }
}

/** Runs one statement on the server's maintenance database. */
async function onServer(server: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

const withDatabase = (server: string, name: string) => {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
};

/** The run's template: this run's migrations applied once, for every test file to copy. */
export async function makeTemplateDatabase(migrate: (url: string) => Promise<void>): Promise<{ name: string; drop(): Promise<void> } | undefined> {
  const server = process.env.DATABASE_URL;
  if (!server) return undefined;
  const name = `atrium_template_${randomBytes(6).toString('hex')}`;
  const drop = () => onServer(server, `drop database if exists ${name} with (force)`);
  await onServer(server, `create database ${name}`);
  try {
    await migrate(withDatabase(server, name));
  } catch (err) {
    await drop();
    throw err;
  }
  return { name, drop };
}

/** This run's template, or undefined outside a run with the global set-up (scale/): migrated at start like a server's first start. */
function runTemplate(): string | undefined {
  try {
    return inject('templateDatabase');
  } catch {
    return undefined;
  }
}

/** The databases a run copies from its template are named after it, so that the run's teardown finds every one left. */
const copyPrefix = (template: string) => `atrium_test_${template.slice('atrium_template_'.length)}_`;

// Each worker copies its next file's database while the current file runs: a copy costs about half a second, most of
// it the server's fsync, which then overlaps the tests instead of delaying the next file's start.
let nextCopy: Promise<string> | null = null;

async function copyTemplate(server: string, template: string): Promise<string> {
  const name = `${copyPrefix(template)}${randomBytes(6).toString('hex')}`;
  await onServer(server, `create database ${name} template ${template}`);
  return name;
}

/**
 * A database of its own for one test file: with DATABASE_URL set, a fresh PostgreSQL database (a copy of the
 * run's migrated template when there is one) dropped afterwards; otherwise undefined, which selects a fresh
 * in-memory embedded database (itself a copy of the migrated seed).
 */
export async function freshDatabaseUrl(): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  const server = process.env.DATABASE_URL;
  if (!server) return { url: undefined, drop: async () => {} };
  const template = runTemplate();
  let name: string;
  if (template) {
    const ready = nextCopy;
    nextCopy = null;
    name = (ready ? await ready.catch(() => null) : null) ?? await copyTemplate(server, template);
    const next = copyTemplate(server, template);
    next.catch(() => {});
    nextCopy = next;
  } else {
    name = `atrium_test_${randomBytes(6).toString('hex')}`;
    await onServer(server, `create database ${name}`);
  }
  const drop = () => onServer(server, `drop database if exists ${name} with (force)`);
  // A copy of the run's template is dropped while the next file runs (about 0.1 s of the server's): one that a
  // worker's exit cuts short is finished by the run's teardown (dropRunCopies), which finds it by its name.
  return { url: withDatabase(server, name), drop: template ? async () => { drop().catch(() => {}); } : drop };
}

/** Drops what the run's workers copied ahead and no file used, and the drops a worker's exit cut short (the run's teardown). */
export async function dropRunCopies(template: string): Promise<void> {
  const server = process.env.DATABASE_URL;
  if (!server) return;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    // A worker that ended while its copy or drop ran leaves the server finishing it.
    for (let waited = 0; waited < 10_000; waited += 100) {
      const busy = await admin.query("select 1 from pg_stat_activity where state = 'active' and (starts_with(query, $1) or starts_with(query, $2))",
        [`create database ${copyPrefix(template)}`, `drop database if exists ${copyPrefix(template)}`]);
      if (busy.rowCount === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [copyPrefix(template)]);
    for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
  } finally {
    await admin.end();
  }
}

// Each worker keeps one in-memory embedded database and empties it for its next file: a new one costs about 0.4 s to
// open (unpacking the seed, starting PostgreSQL in WebAssembly) and its memory to collect, emptying about 0.05 s.
let kept: PGlite | null = null;
let keptInUse = false;

/** Empties every table (the schema and its migrations stay) and what a session may have left: locks, settings. */
async function empty(client: PGlite): Promise<void> {
  const { rows } = await client.query<{ name: string }>("select quote_ident(tablename) as name from pg_tables where schemaname = 'public'");
  await client.exec(`truncate ${rows.map((row) => row.name).join(', ')} restart identity cascade; select pg_advisory_unlock_all(); reset all;`);
}

const openInMemory = async () => PGlite.create({ loadDataDir: await loadSeedArchive(), ...await embeddedAssets() });

/**
 * A fresh in-memory embedded database (the migrated seed, empty): the worker's kept one, emptied, when no other
 * file's harness holds it; otherwise one of its own, closed at the end.
 */
export async function freshEmbeddedDatabase(): Promise<Database> {
  if (keptInUse) {
    const own = await openInMemory();
    return embeddedDatabase(own, () => own.close());
  }
  keptInUse = true;
  try {
    if (kept && !kept.closed) {
      await empty(kept).catch(async () => { await kept?.close().catch(() => {}); kept = null; });
    }
    kept ??= await openInMemory();
  } catch (err) {
    keptInUse = false;
    throw err;
  }
  const client = kept;
  return embeddedDatabase(client, async () => {
    // A file that ends inside a transaction leaves the client unusable: the next file opens a new one.
    if (client.isInTransaction()) { await client.close().catch(() => {}); kept = null; }
    keptInUse = false;
  });
}

export const usingPostgres = () => Boolean(process.env.DATABASE_URL);
