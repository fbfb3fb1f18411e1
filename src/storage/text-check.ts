/** Characters no text file holds: C0 controls other than tab, line feed, form feed and carriage return, and DEL. */
const CONTROL = /[\x00-\x08\x0B\x0E-\x1F\x7F]/;

/**
 * Anything a browser or an XML reader would take for markup: a tag (`<b>`, `</p`, `<svg `), a comment or
 * doctype (`<!`), a processing instruction (`<?xml`). A comparison such as `a<b` or `x < 3` is not one.
 */
const MARKUP = /<(?:[!?]|\/?[A-Za-z][A-Za-z0-9:-]*[\s/>])/;

/** How much of the previous chunk is looked at again with the next, so that a tag cut between chunks is seen. */
const CARRY = 64;

/**
 * Follows a file declared as text (`.txt`, `.csv`) chunk by chunk: it must be valid UTF-8, without
 * control characters and without markup, so that it cannot be read as a page or a drawing either.
 * Only CARRY bytes are kept between chunks.
 */
export class TextCheck {
  failed = false;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private tail = '';

  take(chunk: Buffer): void {
    if (this.failed) return;
    try {
      this.decoder.decode(chunk, { stream: true });
    } catch {
      this.failed = true;
      return;
    }
    // UTF-8 never uses bytes below 0x80 inside a multi-byte sequence, so ASCII is found byte by byte.
    const ascii = this.tail + chunk.toString('latin1');
    this.failed = CONTROL.test(ascii) || MARKUP.test(ascii);
    this.tail = ascii.slice(-CARRY);
  }

  /** Whether the whole file was fine: its last character must be complete too. */
  finish(): boolean {
    if (this.failed) return false;
    try {
      this.decoder.decode();
    } catch {
      this.failed = true;
    }
    return !this.failed;
  }
}
