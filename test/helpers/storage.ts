import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { expect } from 'vitest';
import type { Storage } from '../../src/storage/storage.js';

/** What every driver does: a buffer or a stream stored under a key, read back with its size, replaced, deleted (twice). */
export async function expectPutGetDelete(storage: Storage): Promise<void> {
  await storage.put('avatars/a.png', Buffer.from('first'));
  await storage.put('assets/space-1/b.txt', Readable.from(['stre', 'amed']));
  const first = await storage.get('avatars/a.png');
  expect(first?.size).toBe(5);
  expect(await text(first!.content)).toBe('first');
  expect(await text((await storage.get('assets/space-1/b.txt'))!.content)).toBe('streamed');

  await storage.put('avatars/a.png', Buffer.from('replaced'));
  expect(await text((await storage.get('avatars/a.png'))!.content)).toBe('replaced');
  await storage.delete('avatars/a.png');
  await storage.delete('avatars/a.png');
  expect(await storage.get('avatars/a.png')).toBeNull();
}
