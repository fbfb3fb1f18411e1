import { isUtf8 } from 'node:buffer';

/**
 * Anything a browser or an XML reader would take for markup: a tag (`<b>`, `</p`, `<svg `), a comment or
 * doctype (`<!`), a processing instruction (`<?xml`). A comparison such as `a<b` or `x < 3` is not one.
 */
const MARKUP = /^<(?:[!?]|\/?[A-Za-z][A-Za-z0-9:-]*[\s/>])/;
const LT = 0x3c;

/** How much of the previous chunk is looked at again with the next, so that a tag cut between chunks is seen. */
const CARRY = 64;

/** Where a multi-byte character cut by the chunk's end starts (the chunk's length when none is). */
function completeLength(chunk: Buffer): number {
  for (let back = 1; back <= Math.min(3, chunk.length); back++) {
    const byte = chunk[chunk.length - back];
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? chunk.length - back : chunk.length;
  }
  return chunk.length;
}

/**
 * Follows a file declared as text (`.txt`, `.csv`) chunk by chunk: it must be valid UTF-8, hold no NUL
 * byte (binary data, or UTF-16) and no markup, so that it cannot be read as a page or a drawing either.
 * Only a few bytes are kept between chunks; each check runs at memchr-like speed (`isUtf8`, `indexOf`).
 */
export class TextCheck {
  failed = false;
  /** The start of a character cut by the previous chunk's end. */
  private cut: Buffer = Buffer.alloc(0);
  /** The previous chunk's last bytes, looked at again for markup. */
  private tail: Buffer = Buffer.alloc(0);

  take(chunk: Buffer): void {
    if (this.failed) return;
    const data = this.cut.length ? Buffer.concat([this.cut, chunk]) : chunk;
    const complete = completeLength(data);
    this.cut = Buffer.from(data.subarray(complete));
    this.failed = !isUtf8(data.subarray(0, complete)) || chunk.includes(0) || this.hasMarkup(chunk);
  }

  private hasMarkup(chunk: Buffer): boolean {
    const window = this.tail.length ? Buffer.concat([this.tail, chunk]) : chunk;
    this.tail = Buffer.from(window.subarray(Math.max(0, window.length - CARRY)));
    for (let at = window.indexOf(LT); at !== -1; at = window.indexOf(LT, at + 1)) {
      if (MARKUP.test(window.toString('latin1', at, at + CARRY))) return true;
    }
    return false;
  }

  /** Whether the whole file was fine: its last character must be complete too. */
  finish(): boolean {
    if (this.cut.length) this.failed = true;
    return !this.failed;
  }
}
