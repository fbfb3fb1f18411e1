import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';

export const TEST_BUCKET = 'atrium-test';
/** How s3rver names the file holding an object's content in its folder. */
const OBJECT_SUFFIX = '._S3rver_object';

export interface S3Server {
  /** STORAGE_URL for the test bucket on this server. */
  storageUrl: string;
  /** The keys of every object in the test bucket, sorted. */
  keys(): string[];
  close(): Promise<void>;
}

/** An S3-compatible server on a free loopback port, its files in a temporary folder, with one empty bucket. */
export async function startS3(): Promise<S3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: TEST_BUCKET }] });
  const { port } = (await server.run()) as { port: number };
  // The SDK's default chain reads these; s3rver accepts its own fixed pair.
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  return {
    storageUrl: `s3://${TEST_BUCKET}?endpoint=http://127.0.0.1:${port}&region=us-east-1&force_path_style=1`,
    keys: () => {
      const bucket = path.join(directory, TEST_BUCKET);
      return fs.readdirSync(bucket, { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith(OBJECT_SUFFIX))
        .map((name) => name.slice(0, -OBJECT_SUFFIX.length).split(path.sep).join('/'))
        .sort();
    },
    close: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
