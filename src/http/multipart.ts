import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { IncomingFile } from '../storage/checks.js';
import { AppError, badRequest, invalidField, payloadTooLarge, unsupportedMediaType } from '../errors/index.js';

/** The failures a route taking a file declares, besides its own: malformed, too large, not multipart, invalid. */
export const FILE_FORM_FAILURES = [400, 413, 415, 422] as const;

/** Documents a multipart form with one file part; the file is read by the handler, so nothing here refuses the body. */
export const fileForm = (field = 'file') =>
  ({ content: { 'multipart/form-data': { schema: { properties: { [field]: { type: 'string', format: 'binary' } } } } } }) as never;

const BOUNDARY = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i;

/**
 * Follows the raw body for the closing delimiter (`\r\n--boundary--`): the form parser takes a body that
 * simply stops for a finished one, and a delimiter cannot occur inside a part, so seeing it is exact.
 */
function watchClosingDelimiter(body: Readable, boundary: string): () => boolean {
  const delimiter = Buffer.from(`\r\n--${boundary}--`);
  const keep = delimiter.length - 1;
  let tail = Buffer.from('\r\n');
  let seen = false;
  // Only the bytes where one chunk meets the next are copied: a file's content is never duplicated.
  body.on('data', (chunk: Buffer) => {
    if (seen) return;
    seen = Buffer.concat([tail, chunk.subarray(0, keep)]).includes(delimiter) || chunk.includes(delimiter);
    const recent = chunk.length >= keep ? chunk : Buffer.concat([tail, chunk]);
    tail = Buffer.from(recent.subarray(Math.max(0, recent.length - keep)));
  });
  return () => seen;
}

async function readWhole(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** What the form parser threw, as a client's error: too many parts is 413, anything else malformed (400). */
function formError(err: unknown, field: string): AppError {
  if (err instanceof AppError) return err;
  const { code, message } = err as { code?: string; message?: string };
  if (code === 'FST_FILES_LIMIT') return payloadTooLarge(`Send one file only, in the part named ${field}`);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return payloadTooLarge('The form has too many parts');
  return badRequest(`The multipart body is malformed: ${message ?? 'unreadable'}`);
}

/** The file part of a form as it arrives: `truncated()` tells, once its content has ended, whether it was cut at the limit. */
export interface FilePart {
  fileName: string;
  content: Readable;
  truncated(): boolean;
}

export interface FileFormOptions<T> {
  /** The part holding the file. */
  field?: string;
  /** Past this many bytes the file is cut and marked truncated, for the upload checks to refuse with its name. */
  maxBytes: number;
  /** Consumes the file part's content, whole (the next part is read only after it). */
  receive: (file: FilePart) => Promise<T>;
  /** Undoes what `receive` did, when the form turns out broken after the file. */
  discard?: (received: T) => Promise<void>;
}

/** A form's one file, as `receive` took it (undefined when there is none), and its plain fields (the first value of each). */
export interface FileForm<T> {
  file: T | undefined;
  fields: Record<string, string>;
}

/**
 * Reads a multipart/form-data request with at most one file, in the part named `field`, handing its
 * content to `receive` as it arrives, and its plain fields. Whatever the client sends, the answer is a
 * 4xx: not multipart 415; no boundary, a body cut short or otherwise malformed 400 (after `discard`
 * of a file already received); more than one file or too many parts 413; a plain field in place of the
 * file or a file name with a NUL character 422.
 */
export async function readFileForm<T>(request: FastifyRequest, options: FileFormOptions<T>): Promise<FileForm<T>> {
  const { field = 'file', maxBytes, receive, discard } = options;
  if (!request.isMultipart()) throw unsupportedMediaType(`Send the file as multipart/form-data, in a part named ${field}`);
  const boundary = BOUNDARY.exec(request.headers['content-type'] ?? '');
  if (!boundary) throw badRequest('The multipart/form-data content type has no boundary');
  // Attached before the parser starts reading, in the same tick, so that it sees every chunk too.
  const closed = watchClosingDelimiter(request.raw, boundary[1] ?? boundary[2]);
  const form: FileForm<T> = { file: undefined, fields: Object.create(null) as Record<string, string> };
  let plainField = false;
  let badName = false;
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1 } })) {
      if (part.type === 'file') {
        const content = part.file;
        if (part.fieldname !== field || part.filename.includes('\u0000')) {
          badName ||= part.fieldname === field;
          await drain(content);
        } else {
          form.file = await receive({ fileName: part.filename, content, truncated: () => content.truncated });
        }
      } else if (part.fieldname === field) {
        plainField = true;
      } else {
        form.fields[part.fieldname] ??= String(part.value);
      }
    }
    if (!closed()) throw badRequest('The multipart body ends before its closing boundary');
    if (plainField) throw invalidField(field, 'must be a file part, not a plain field');
    if (badName) throw invalidField(field, 'name must not contain a NUL character');
  } catch (err) {
    if (form.file !== undefined) await discard?.(form.file);
    throw formError(err, field);
  }
  return form;
}

async function drain(stream: Readable): Promise<void> {
  for await (const _ of stream);
}

/** Reads the one file of a multipart/form-data request (see readFileForm) whole, up to `maxBytes`. Undefined when the form has no file. */
export async function readOneFile(request: FastifyRequest, { field = 'file', maxBytes }: { field?: string; maxBytes: number }): Promise<IncomingFile | undefined> {
  const form = await readFileForm(request, {
    field, maxBytes,
    receive: async ({ fileName, content, truncated }) => ({ fileName, content: await readWhole(content), truncated: truncated() }),
  });
  return form.file;
}
