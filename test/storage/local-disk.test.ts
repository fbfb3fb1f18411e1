import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { localDiskStorage } from '../../src/storage/local-disk.js';
import { expectPutGetDelete } from '../helpers/storage.js';

describe('local-disk storage', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-storage-'));
  const root = path.join(folder, 'uploads');
  const storage = localDiskStorage(root);
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('puts a buffer or a stream under a key, reads it back with its size, and deletes it', async () => {
    await expectPutGetDelete(storage);
    expect(await storage.get('avatars')).toBeNull();
    expect(await storage.get('avatars/a.png/deeper')).toBeNull();
  });

  it('stores a stream of many writes whole, across the syncs started while it arrives', async () => {
    const chunks = Array.from({ length: 300 }, () => randomBytes(64 * 1024 + 7));
    const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
    await storage.put('assets/large.bin', Readable.from(chunks));
    const stored = await storage.get('assets/large.bin');
    expect(stored?.size).toBe(300 * (64 * 1024 + 7));
    const read: Buffer[] = [];
    for await (const chunk of stored!.content) read.push(chunk as Buffer);
    expect(sha256(Buffer.concat(read))).toBe(sha256(Buffer.concat(chunks)));
    expect(fs.readdirSync(path.join(root, 'assets')).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('leaves no temporary file when the content fails midway', async () => {
    const failing = new Readable({
      read() {
        this.push('partial');
        this.destroy(new Error('the client went away'));
      },
    });
    await expect(storage.put('avatars/c.png', failing)).rejects.toThrow('the client went away');
    expect(fs.readdirSync(path.join(root, 'avatars'))).toEqual([]);
  });

  it('refuses keys that could leave its folder or name a temporary file', async () => {
    fs.writeFileSync(path.join(folder, 'outside.txt'), 'secret');
    for (const key of ['../outside.txt', 'avatars/../../outside.txt', '/etc/passwd', '.hidden', 'avatars/.a.png.part', 'a//b', 'a/', '', 'a\\..\\b', 'a\u0000b']) {
      await expect(storage.get(key), key).rejects.toThrow('not a storage key');
      await expect(storage.put(key, Buffer.from('x')), key).rejects.toThrow('not a storage key');
      await expect(storage.delete(key), key).rejects.toThrow('not a storage key');
    }
    expect(fs.readFileSync(path.join(folder, 'outside.txt'), 'utf8')).toBe('secret');
  });
});
