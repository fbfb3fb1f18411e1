/** Escaped HTML for the realm pages: every text and attribute value goes through `html`. */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text and attribute values go through this, always. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** A piece of markup already escaped; `html` passes it through unchanged. */
export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Value = string | number | Markup | Markup[] | null | undefined | false;

/** Tagged template that escapes every interpolated value except Markup. */
export function html(strings: TemplateStringsArray, ...values: Value[]): Markup {
  let out = strings[0];
  values.forEach((value, i) => {
    if (value instanceof Markup) out += value.text;
    else if (Array.isArray(value)) out += value.map((m) => m.text).join('');
    else if (value !== null && value !== undefined && value !== false) out += escapeHtml(String(value));
    out += strings[i + 1];
  });
  return new Markup(out);
}
