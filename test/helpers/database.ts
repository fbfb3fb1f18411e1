import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A database of its own for one test file: with DATABASE_URL set, a fresh PostgreSQL database created
 * here and dropped afterwards; otherwise undefined, which selects a fresh in-memory embedded database.
 */
export async function freshDatabaseUrl(): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  const server = process.env.DATABASE_URL;
  if (!server) return { url: undefined, drop: async () => {} };
  const name = `atrium_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export const usingPostgres = () => Boolean(process.env.DATABASE_URL);
