import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { checkKey, type Storage } from './storage.js';

/** Where the objects go: a bucket, an optional key prefix and how to reach the server. */
export interface S3Location {
  bucket: string;
  prefix: string;
  endpoint: string | undefined;
  region: string | undefined;
  forcePathStyle: boolean;
}

/** The SDK, loaded on the first use of the bucket: about 40 MB of modules a server on local disk never needs. */
const sdk = async () => {
  const [s3, storage] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
  return { ...s3, Upload: storage.Upload };
};
type Sdk = Awaited<ReturnType<typeof sdk>>;

const isMissing = ({ NoSuchKey, S3ServiceException }: Sdk, err: unknown) =>
  err instanceof NoSuchKey || err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404;

/**
 * Keeps objects in an S3-compatible bucket. Content is streamed up in parts (multipart upload), never
 * held whole; S3 shows an object only once its upload completes, and a failed upload is aborted, so a
 * reader never sees part of one. Credentials come from the SDK's usual chain (AWS_ACCESS_KEY_ID, ...).
 */
export function s3Storage(location: S3Location): Storage {
  let loaded: Promise<{ sdk: Sdk; client: S3Client }> | undefined;
  const connected = () => (loaded ??= sdk().then((loadedSdk) => ({
    sdk: loadedSdk,
    client: new loadedSdk.S3Client({
      endpoint: location.endpoint,
      region: location.region ?? process.env.AWS_REGION ?? 'us-east-1',
      forcePathStyle: location.forcePathStyle,
      // S3-compatible servers do not all know the checksums the SDK now adds by default.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    }),
  })));
  const objectOf = (key: string) => ({ Bucket: location.bucket, Key: location.prefix + checkKey(key) });
  return {
    async put(key, content) {
      const { sdk: { Upload }, client } = await connected();
      const upload = new Upload({ client, params: { ...objectOf(key), Body: content }, leavePartsOnError: false });
      try {
        await upload.done();
      } catch (err) {
        // The content's own failure (a size limit, a client gone) is what the caller must see, even if
        // the abort that followed it failed too (some S3-compatible servers do not know AbortMultipartUpload).
        throw (Buffer.isBuffer(content) ? null : content.errored) ?? err;
      }
    },

    async get(key) {
      const { sdk: loadedSdk, client } = await connected();
      try {
        const object = await client.send(new loadedSdk.GetObjectCommand(objectOf(key)));
        return { size: object.ContentLength ?? 0, content: object.Body as Readable };
      } catch (err) {
        if (isMissing(loadedSdk, err)) return null;
        throw err;
      }
    },

    async delete(key) {
      const { sdk: loadedSdk, client } = await connected();
      await client.send(new loadedSdk.DeleteObjectCommand(objectOf(key))).catch((err: unknown) => {
        if (!isMissing(loadedSdk, err)) throw err;
      });
    },
  };
}
