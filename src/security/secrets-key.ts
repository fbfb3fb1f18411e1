import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ConfigError, type Config } from '../config.js';
import { PRIVATE_FILE_MODE } from './private-modes.js';

const MISSING = 'SECRETS_KEY must be set with DATABASE_URL: every server process on the database needs the same key '
  + 'to read the secrets it stores (32 random bytes in base64: openssl rand -base64 32)';

/** With PostgreSQL several processes share the stored secrets, so they must be given the key: checked at start. */
export function requireSecretsKey(config: Config): void {
  if (config.databaseUrl && !config.secretsKey) throw new ConfigError(MISSING);
}

const fromFiles = new Map<string, Buffer>();

/**
 * The key that seals stored secrets: SECRETS_KEY, or for the embedded database (one process per data
 * folder) `DATA_DIR/secrets.key`, made on first use, readable by its owner only.
 */
export function secretsKey(config: Config): Buffer {
  if (config.secretsKey) return config.secretsKey;
  requireSecretsKey(config);
  const file = path.join(config.dataDir, 'secrets.key');
  let key = fromFiles.get(file);
  if (!key) {
    key = readOrCreate(file);
    fromFiles.set(file, key);
  }
  return key;
}

function readOrCreate(file: string): Buffer {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    fs.writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: PRIVATE_FILE_MODE });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new ConfigError(`${file} does not hold a 32-byte key in base64`);
  return key;
}
