import path from 'node:path';
import { AppError, declare, invalidField } from '../errors/index.js';
import { TextCheck } from './text-check.js';

/** A file received from a client, read whole up to a size limit. */
export interface IncomingFile {
  fileName: string;
  content: Buffer;
  /** The file went past the limit it was read with and was cut there. */
  truncated: boolean;
}

/**
 * What a file with a given extension must be. `detected`: the media types `file-type` may find in its
 * first bytes (by default its own `type`); `text`: UTF-8 text without markup, which has no magic bytes.
 */
interface Format {
  type: string;
  detected?: string[];
  text?: true;
  /** An image a browser may show inline. */
  image?: true;
}

// The legacy Office formats are all Compound File Binary containers: file-type tells no more than that.
const CFB = ['application/x-cfb'];
const FORMATS: Record<string, Format> = {
  jpg: { type: 'image/jpeg', image: true },
  png: { type: 'image/png', image: true },
  gif: { type: 'image/gif', image: true },
  webp: { type: 'image/webp', image: true },
  pdf: { type: 'application/pdf' },
  rtf: { type: 'application/rtf' },
  doc: { type: 'application/msword', detected: CFB },
  xls: { type: 'application/vnd.ms-excel', detected: CFB },
  ppt: { type: 'application/vnd.ms-powerpoint', detected: CFB },
  docx: { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  xlsx: { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  pptx: { type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' },
  odt: { type: 'application/vnd.oasis.opendocument.text' },
  ods: { type: 'application/vnd.oasis.opendocument.spreadsheet' },
  odp: { type: 'application/vnd.oasis.opendocument.presentation' },
  txt: { type: 'text/plain; charset=utf-8', text: true },
  csv: { type: 'text/csv; charset=utf-8', text: true },
};
const SAME_EXTENSION: Record<string, string> = { jpeg: 'jpg' };

/** Extensions whose content the checks below can tell (SVG and HTML are never among them: they can run script). */
export const CHECKED_EXTENSIONS = Object.keys(FORMATS);

/** The media type a file checked to be of this extension is served as. */
export const mediaTypeOf = (extension: string): string => (Object.hasOwn(FORMATS, extension) ? FORMATS[extension].type : 'application/octet-stream');
export const isImage = (extension: string): boolean => Object.hasOwn(FORMATS, extension) && FORMATS[extension].image === true;

/** A file name's extension, lower case, with synonyms folded (`photo.JPEG` → `jpg`). */
export function extensionOf(fileName: string): string {
  const extension = path.extname(fileName).slice(1).toLowerCase();
  return SAME_EXTENSION[extension] ?? extension;
}

export interface UploadRules {
  /** The extensions this kind of file may have; its content must be the format of its extension. */
  extensions: string[];
  /** The account's settings: the extensions it allows, and its size limit in bytes. */
  allowedExtensions: string[];
  maxBytes: number;
  /** Names the kind of file in the extension message ("an avatar"), which then lists what it may be. */
  kind?: string;
}

/** How much of a file's beginning is kept to tell its format: enough for file-type to read an Office archive's content types. */
const SAMPLE_BYTES = 64 * 1024;

/**
 * Tags a browser would render as a page or a drawing, looked for in a binary file's first bytes: a file that
 * is an image or a PDF and a page at once (a polyglot) is refused, should it ever be shown without our headers.
 */
const ACTIVE_MARKUP = /<(?:!doctype\s+html|html|head|body|script|svg|iframe|object|embed|meta|style|link|form|img)[\s/>]/i;

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * Follows a file's bytes as they arrive, keeping no more than its first SAMPLE_BYTES, and tells every
 * reason to refuse it, each starting with its name: an extension this kind of file or the account does
 * not allow, content (by its magic bytes, or as text) that is not what its extension says, a size past
 * the account's limit. `refused` turns true as soon as the bytes seen already condemn the file, so that
 * the rest need not be kept.
 */
export class FileInspection {
  readonly name: string;
  readonly extension: string;
  bytes = 0;
  private readonly allowed: boolean;
  private readonly format: Format | undefined;
  private readonly text: TextCheck | null;
  private sample: Buffer[] = [];
  private sampled = 0;
  /** Null until the sample was looked at; then whether the content is what the extension says. */
  private matches: boolean | null = null;

  constructor(fileName: string, private readonly rules: UploadRules) {
    this.name = fileName || 'file';
    this.extension = extensionOf(fileName);
    const allowed = this.allowedExtensions();
    this.allowed = allowed.includes(this.extension);
    this.format = this.allowed && Object.hasOwn(FORMATS, this.extension) ? FORMATS[this.extension] : undefined;
    this.text = this.format?.text ? new TextCheck() : null;
  }

  private allowedExtensions(): string[] {
    return this.rules.extensions.filter((e) => this.rules.allowedExtensions.some((a) => (SAME_EXTENSION[a] ?? a) === e));
  }

  get refused(): boolean {
    return !this.allowed || this.matches === false || this.text?.failed === true;
  }

  async take(chunk: Buffer): Promise<void> {
    this.bytes += chunk.length;
    this.text?.take(chunk);
    if (this.matches !== null || this.text || !this.format) return;
    this.sample.push(chunk);
    this.sampled += chunk.length;
    if (this.sampled >= SAMPLE_BYTES) await this.lookAtSample();
  }

  private async lookAtSample(): Promise<void> {
    const sample = Buffer.concat(this.sample).subarray(0, SAMPLE_BYTES);
    this.sample = [];
    const { fileTypeFromBuffer } = await import('file-type');
    const detected = await fileTypeFromBuffer(sample);
    const expected = this.format!.detected ?? [this.format!.type];
    this.matches = detected !== undefined && expected.includes(detected.mime) && !ACTIVE_MARKUP.test(sample.toString('latin1'));
  }

  /** Every reason the whole file (cut at the limit when `truncated`) is refused; empty when it is fine. */
  async reasons(truncated: boolean): Promise<string[]> {
    const reasons: string[] = [];
    // A name is written into headers (Content-Disposition) and logs: a line break there would start a new one.
    if (CONTROL_CHARACTER.test(this.name)) reasons.push('the file name must not contain line breaks or other control characters');
    if (truncated) reasons.push(`${this.name}: is larger than the maximum of ${this.rules.maxBytes} bytes`);
    if (!this.allowed) {
      const kind = this.rules.kind ? ` (${this.rules.kind} is one of ${this.allowedExtensions().join(', ')})` : '';
      reasons.push(`${this.name}: extension is not allowed${kind}`);
    } else if (!truncated && this.bytes === 0) {
      reasons.push(`${this.name}: is empty`);
    } else if (!truncated) {
      if (this.matches === null && !this.text) await this.lookAtSample();
      if (this.text ? !this.text.finish() : !this.matches) reasons.push(`${this.name}: content does not match the extension`);
    }
    return reasons;
  }
}

const FILE_REFUSED = declare({ code: 'ATR_FILE_REFUSED', kind: 'invalid', description: 'The file is refused: one text per reason, each starting with the file name' });

/** Throws the 422 of a refused file: one text per reason, each starting with the file name, filed under `field`. */
export function refuseFile(reasons: string[], field = 'file'): never {
  throw new AppError(FILE_REFUSED, reasons, { details: [{ field, messages: reasons }] });
}

/** A form without its file: 422 on `field`. */
export const missingFile = (field = 'file') => invalidField(field, "can't be blank");

/** Checks a file read whole (see FileInspection); a missing one is refused on `field`. */
export async function checkUpload(file: IncomingFile | undefined, rules: UploadRules, field = 'file'): Promise<IncomingFile> {
  if (!file) throw missingFile(field);
  const inspection = new FileInspection(file.fileName, rules);
  await inspection.take(file.content);
  const reasons = await inspection.reasons(file.truncated);
  if (reasons.length) refuseFile(reasons, field);
  return file;
}
