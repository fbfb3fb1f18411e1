import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

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

/**
 * A database of its own for one test file: with DATABASE_URL set, a fresh PostgreSQL database created
 * here (a copy of the run's migrated template when there is one) and dropped afterwards; otherwise
 * undefined, which selects a fresh in-memory embedded database (itself a copy of the migrated seed).
 */
export async function freshDatabaseUrl(): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  const server = process.env.DATABASE_URL;
  if (!server) return { url: undefined, drop: async () => {} };
  const name = `atrium_test_${randomBytes(6).toString('hex')}`;
  let template: string | undefined;
  try {
    template = inject('templateDatabase');
  } catch {
    // Outside a run with the global set-up (scale/): migrated at start like a server's first start.
  }
  await onServer(server, `create database ${name}${template ? ` template ${template}` : ''}`);
  return { url: withDatabase(server, name), drop: () => onServer(server, `drop database if exists ${name} with (force)`) };
}

export const usingPostgres = () => Boolean(process.env.DATABASE_URL);
