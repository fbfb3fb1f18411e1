import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { s3Storage } from '../../src/storage/s3.js';
import type { Storage } from '../../src/storage/storage.js';
import { startS3, type S3Server } from '../helpers/s3.js';
import { expectPutGetDelete } from '../helpers/storage.js';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function bytesOf(content: Readable): Promise<Buffer> {
  const read: Buffer[] = [];
  for await (const chunk of content) read.push(chunk as Buffer);
  return Buffer.concat(read);
}

describe('S3 storage', () => {
  let s3: S3Server;
  let storage: Storage;
  beforeAll(async () => {
    s3 = await startS3();
    storage = s3Storage(loadConfig({ STORAGE_URL: s3.storageUrl }).storage!);
  });
  afterAll(() => s3.close());

  it('puts a buffer or a stream under a key, reads it back with its size, replaces and deletes it', async () => {
    await expectPutGetDelete(storage);
    expect(await storage.get('never/stored.bin')).toBeNull();
  });

  it('streams 20 MB sent in odd chunks up in parts and gives the same bytes back', async () => {
    const chunks = Array.from({ length: 320 }, (_, i) => randomBytes(64 * 1024 + 7 + i % 13));
    const sent = Buffer.concat(chunks);
    expect(sent.length).toBeGreaterThan(20 * 1024 * 1024);
    await storage.put('assets/large.bin', Readable.from(chunks));
    const stored = await storage.get('assets/large.bin');
    expect(stored?.size).toBe(sent.length);
    expect(sha256(await bytesOf(stored!.content))).toBe(sha256(sent));
  }, 60_000);

  it('leaves no object when the content fails midway, small or already in several parts', async () => {
    for (const [key, before] of [['avatars/c.png', 1], ['assets/d.bin', 200]] as const) {
      let sent = 0;
      const failing = new Readable({
        read() {
          if (sent++ < before) this.push(randomBytes(64 * 1024));
          else this.destroy(new Error('the client went away'));
        },
      });
      await expect(storage.put(key, failing)).rejects.toThrow('the client went away');
      expect(await storage.get(key), key).toBeNull();
    }
  }, 60_000);

  it('refuses keys that could leave the bucket prefix', async () => {
    for (const key of ['../outside.txt', '/etc/passwd', '.hidden', 'a//b', '', 'a\u0000b']) {
      await expect(storage.get(key), key).rejects.toThrow('not a storage key');
      await expect(storage.put(key, Buffer.from('x')), key).rejects.toThrow('not a storage key');
    }
  });

  it('keeps objects under the prefix the address names, apart from the bucket root', async () => {
    const prefixed = s3Storage(loadConfig({ STORAGE_URL: s3.storageUrl.replace('?', '/tenant-1/files?') }).storage!);
    await prefixed.put('avatars/e.png', Buffer.from('prefixed'));
    expect(await text((await prefixed.get('avatars/e.png'))!.content)).toBe('prefixed');
    expect(await storage.get('avatars/e.png')).toBeNull();
    expect(await text((await storage.get('tenant-1/files/avatars/e.png'))!.content)).toBe('prefixed');
  });
});

describe('STORAGE_URL', () => {
  it('unset keeps the local disk; a bucket address is read with its options', () => {
    expect(loadConfig({}).storage).toBeNull();
    expect(loadConfig({ STORAGE_URL: 's3://my-bucket/up/loads?endpoint=http://minio:9000/&region=eu-west-1&force_path_style=1' }).storage).toEqual({
      bucket: 'my-bucket', prefix: 'up/loads/', endpoint: 'http://minio:9000', region: 'eu-west-1', forcePathStyle: true,
    });
    expect(loadConfig({ STORAGE_URL: 's3://my-bucket' }).storage).toEqual({
      bucket: 'my-bucket', prefix: '', endpoint: undefined, region: undefined, forcePathStyle: false,
    });
  });

  it('refuses a bad address with one clear line', () => {
    const refused = {
      'http://bucket': 'STORAGE_URL must look like s3://bucket',
      's3://': 'STORAGE_URL must look like s3://bucket',
      's3://Bad_Bucket': 'STORAGE_URL must look like s3://bucket',
      's3://key:secret@bucket': 'STORAGE_URL must look like s3://bucket',
      'not a url': 'STORAGE_URL must look like s3://bucket',
      's3://bucket?endpoint=ftp://host': 'STORAGE_URL endpoint must be an absolute http(s) address',
      's3://bucket?endpoint=http://host&force_path_style=yes': 'force_path_style must be 1 or 0',
      's3://bucket?secret=x': 'unknown option "secret"',
      's3://bucket/.hidden': 'the key prefix ".hidden"',
    };
    for (const [url, message] of Object.entries(refused)) {
      expect(() => loadConfig({ STORAGE_URL: url }), url).toThrow(ConfigError);
      expect(() => loadConfig({ STORAGE_URL: url }), url).toThrow(message);
    }
  });
});
