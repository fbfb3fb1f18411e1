import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { checkKey, type Storage } from './storage.js';

/** Where the objects go: a bucket, an optional key prefix and how to reach the server. */
export interface S3Location {
  bucket: string;
  prefix: string;
  endpoint: string | undefined;
  region: string | undefined;
  forcePathStyle: boolean;
}

const isMissing = (err: unknown) =>
  err instanceof NoSuchKey || err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404;

/**
 * Keeps objects in an S3-compatible bucket. Content is streamed up in parts (multipart upload), never
 * held whole; S3 shows an object only once its upload completes, and a failed upload is aborted, so a
 * reader never sees part of one. Credentials come from the SDK's usual chain (AWS_ACCESS_KEY_ID, ...).
 */
export function s3Storage(location: S3Location): Storage {
  const client = new S3Client({
    endpoint: location.endpoint,
    region: location.region ?? process.env.AWS_REGION ?? 'us-east-1',
    forcePathStyle: location.forcePathStyle,
    // S3-compatible servers do not all know the checksums the SDK now adds by default.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const objectOf = (key: string) => ({ Bucket: location.bucket, Key: location.prefix + checkKey(key) });
  return {
    async put(key, content) {
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
      try {
        const object = await client.send(new GetObjectCommand(objectOf(key)));
        return { size: object.ContentLength ?? 0, content: object.Body as Readable };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },

    async delete(key) {
      await client.send(new DeleteObjectCommand(objectOf(key))).catch((err: unknown) => {
        if (!isMissing(err)) throw err;
      });
    },
  };
}
