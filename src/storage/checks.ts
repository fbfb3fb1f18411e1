import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { AppError, invalidField } from '../http/errors.js';

/** A file received from a client, read whole up to a size limit. */
export interface IncomingFile {
  fileName: string;
  content: Buffer;
  /** The file went past the limit it was read with and was cut there. */
  truncated: boolean;
}

/** The media type a file's content must be, by the extension it is declared with. */
export const MEDIA_TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' };
const SAME_EXTENSION: Record<string, string> = { jpeg: 'jpg' };

/** A file name's extension, lower case, with synonyms folded (`photo.JPEG` → `jpg`). */
export function extensionOf(fileName: string): string {
  const extension = path.extname(fileName).slice(1).toLowerCase();
  return SAME_EXTENSION[extension] ?? extension;
}

export interface UploadRules {
  /** The extensions this kind of file may have; its content must be the media type of its extension. */
  extensions: string[];
  /** The account's settings: the extensions it allows, and its size limit in bytes. */
  allowedExtensions: string[];
  maxBytes: number;
  /** Names the kind of file in the extension message ("an avatar"), which then lists what it may be. */
  kind?: string;
}

/** Every reason the file is refused, each starting with its name; empty when it is fine. */
async function problems(file: IncomingFile, rules: UploadRules): Promise<string[]> {
  const name = file.fileName || 'file';
  const declared = extensionOf(file.fileName);
  const allowed = rules.extensions.filter((e) => rules.allowedExtensions.some((a) => (SAME_EXTENSION[a] ?? a) === e));
  const reasons: string[] = [];
  if (file.truncated) reasons.push(`${name}: is larger than the maximum of ${rules.maxBytes} bytes`);
  if (!allowed.includes(declared)) {
    reasons.push(`${name}: extension is not allowed${rules.kind ? ` (${rules.kind} is one of ${allowed.join(', ')})` : ''}`);
  } else if (!file.truncated) {
    const detected = await fileTypeFromBuffer(file.content);
    if (!detected || detected.mime !== MEDIA_TYPES[declared]) reasons.push(`${name}: content does not match the extension`);
  }
  return reasons;
}

/**
 * Refuses (422, on `field`) a missing or empty file, and a file whose extension this kind of file or
 * the account does not allow, whose content (by its magic bytes) is not what its extension says, or
 * that is larger than the account's limit.
 */
export async function checkUpload(file: IncomingFile | undefined, rules: UploadRules, field = 'file'): Promise<IncomingFile> {
  if (!file || (!file.content.length && !file.truncated)) throw invalidField(field, "can't be blank");
  const reasons = await problems(file, rules);
  if (reasons.length) throw new AppError(422, reasons, [{ field, messages: reasons }]);
  return file;
}
