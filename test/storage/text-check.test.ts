import { describe, expect, it } from 'vitest';
import { TextCheck } from '../../src/storage/text-check.js';

/** The check's verdict on `text` fed in pieces cut at every place given. */
function verdict(text: Buffer, cuts: number[]): boolean {
  const check = new TextCheck();
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    check.take(text.subarray(from, cut));
    from = cut;
  }
  return check.finish();
}

/** The verdicts for every way of cutting `text` in two and in three. */
function verdicts(text: Buffer): Set<boolean> {
  const found = new Set<boolean>();
  for (let a = 0; a <= text.length; a++) {
    found.add(verdict(text, [a]));
    for (let b = a; b <= text.length; b += 3) found.add(verdict(text, [a, b]));
  }
  return found;
}

describe('the text check', () => {
  it('takes UTF-8 text without markup however it is cut, characters of 2 to 4 bytes included', () => {
    for (const text of ['plain;csv\n1;2\n', 'é€😀 and a < b, 3<4, x<-y', '\uFEFFline\r\n\ttab\f']) {
      expect(verdicts(Buffer.from(text)), text).toEqual(new Set([true]));
    }
  });

  it('refuses markup, NUL bytes and invalid or unfinished UTF-8 however it is cut', () => {
    const refused = [
      Buffer.from('ok <script>alert(1)</script>'), Buffer.from('x</p>'), Buffer.from('<!-- c -->'), Buffer.from('<?xml version="1.0"?>'),
      Buffer.from('a <svg onload=1>'), Buffer.from('a\u0000b'), Buffer.from('caf\xe9!', 'latin1'), Buffer.from([0x61, 0xe2, 0x82]),
      Buffer.from([0x61, 0x80, 0x62]), Buffer.from([0xf0, 0x9f, 0x98, 0x41]), Buffer.from([0xc0, 0xaf]),
    ];
    for (const text of refused) expect(verdicts(text), text.toString('latin1')).toEqual(new Set([false]));
  });

  it('sees a tag cut between chunks far from where it starts, up to 64 bytes', () => {
    const tag = Buffer.from(`${'a'.repeat(100)}<${'b'.repeat(50)} onload=1>`);
    for (let cut = 95; cut < tag.length; cut++) expect(verdict(tag, [cut]), String(cut)).toBe(false);
  });
});
