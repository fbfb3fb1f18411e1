import { isUtf8 } from 'node:buffer';

/**
 * Anything a browser or an XML reader would take for markup: a tag (`<b>`, `</p`, `<svg `), a comment or
 * doctype (`<!`), a processing instruction (`<?xml`). A comparison such as `a<b` or `x < 3` is not one.
 */
const MARKUP = /^<(?:[!?]|\/?[A-Za-z][A-Za-z0-9:-]*[\s/>])/;
const LT = 0x3c;

/** How much of the previous chunk is looked at again with the next, so that a tag cut between chunks is seen. */
const CARRY = 64;

/** The length of the UTF-8 sequence a lead byte starts. */
const sequenceLength = (lead: number) => (lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1);

/** Where a multi-byte character cut by the chunk's end starts (the chunk's length when none is). */
function completeLength(chunk: Buffer): number {
  for (let back = 1; back <= Math.min(3, chunk.length); back++) {
    const byte = chunk[chunk.length - back];
    if ((byte & 0xc0) === 0x80) continue;
    return sequenceLength(byte) > back ? chunk.length - back : chunk.length;
  }
  return chunk.length;
}

/** Whether markup starts at one of the `<` of `buffer` before `end`. */
function markupIn(buffer: Buffer, end: number): boolean {
  for (let at = buffer.indexOf(LT); at !== -1 && at < end; at = buffer.indexOf(LT, at + 1)) {
    if (MARKUP.test(buffer.toString('latin1', at, at + CARRY))) return true;
  }
  return false;
}

/**
 * Follows a file declared as text (`.txt`, `.csv`) chunk by chunk: it must be valid UTF-8, hold no NUL
 * byte (binary data, or UTF-16) and no markup, so that it cannot be read as a page or a drawing either.
 * Each check runs at memchr-like speed (`isUtf8`, `indexOf`) on the chunk itself; only the few bytes
 * where one chunk meets the next are copied.
 */
export class TextCheck {
  failed = false;
  /** The start of a character cut by the previous chunk's end. */
  private cut: Buffer = Buffer.alloc(0);
  /** The previous chunk's last bytes, read again with the next chunk's first ones for a tag cut between them. */
  private tail: Buffer = Buffer.alloc(0);

  take(chunk: Buffer): void {
    if (this.failed) return;
    this.failed = !this.validUtf8(chunk) || chunk.includes(0) || this.hasMarkup(chunk);
  }

  private validUtf8(chunk: Buffer): boolean {
    let rest = chunk;
    if (this.cut.length) {
      const missing = sequenceLength(this.cut[0]) - this.cut.length;
      if (chunk.length < missing) {
        this.cut = Buffer.concat([this.cut, chunk]);
        return true;
      }
      if (!isUtf8(Buffer.concat([this.cut, chunk.subarray(0, missing)]))) return false;
      rest = chunk.subarray(missing);
    }
    const complete = completeLength(rest);
    this.cut = Buffer.from(rest.subarray(complete));
    return isUtf8(rest.subarray(0, complete));
  }

  private hasMarkup(chunk: Buffer): boolean {
    const found = (this.tail.length > 0 && markupIn(Buffer.concat([this.tail, chunk.subarray(0, CARRY)]), this.tail.length))
      || markupIn(chunk, chunk.length);
    const recent = chunk.length >= CARRY ? chunk : Buffer.concat([this.tail, chunk]);
    this.tail = Buffer.from(recent.subarray(Math.max(0, recent.length - CARRY)));
    return found;
  }

  /** Whether the whole file was fine: its last character must be complete too. */
  finish(): boolean {
    if (this.cut.length) this.failed = true;
    return !this.failed;
  }
}
