import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { afterCommit } from '../db/request-transaction.js';

/** An object read back: its size in bytes and its content. */
export interface StoredObject {
  size: number;
  content: Readable;
}

/**
 * Where uploaded files are kept (avatars, origination attachments, content assets). Objects are named
 * by keys such as `avatars/<uuid>.png`; where and how a driver keeps them is its own business, so no
 * path ever leaves it. A driver for S3-compatible storage implements the same three operations.
 */
export interface Storage {
  /** Stores the content under the key, whole or not at all: a reader never sees part of it. */
  put(key: string, content: Buffer | Readable): Promise<void>;
  /** The object under the key, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes the object under the key; a key with nothing under it is fine. */
  delete(key: string): Promise<void>;
}

/**
 * Keys are built by the code, never taken from a client as they are: slash-separated segments of
 * letters, digits, `.`, `_` and `-`, each starting with a letter or digit (so no `..`, no hidden
 * names, nothing that leaves the store's folder or bucket prefix).
 */
const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}(?:\/[A-Za-z0-9][A-Za-z0-9._-]{0,127}){0,7}$/;

export function checkKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`not a storage key: ${JSON.stringify(key)}`);
  return key;
}

/**
 * Removes objects that nothing refers to any more, after the commit that dropped the references.
 * A failure is logged and not thrown: the change it follows has already happened.
 */
export async function removeObjects(storage: Storage, log: FastifyBaseLogger, keys: string[]): Promise<void> {
  for (const key of keys) {
    await storage.delete(key).catch((err: Error) => log.warn({ key, reason: err.message }, 'could not remove a stored object'));
  }
}

/** removeObjects once the request's transaction (if any) has committed: a rollback keeps the references, and so the files. */
export function removeAfterCommit(storage: Storage, log: FastifyBaseLogger, keys: string[]): Promise<void> {
  return keys.length ? afterCommit(() => removeObjects(storage, log, keys)) : Promise.resolve();
}
