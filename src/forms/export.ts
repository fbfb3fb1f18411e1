import { Readable } from 'node:stream';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import type { FormResponseRow } from '../tables/forms.js';
import { requireForm, type FormWithRealm } from './forms.js';
import { responseFilter, responsesAfter } from './responses.js';

/** Rows read per query of an export: a keyset page, so memory stays flat whatever the count. */
export const EXPORT_PAGE = 500;

const FIXED = ['id', 'submitted_at', 'status', 'spam_reason', 'email', 'user_id', 'locale'];

/** A cell a spreadsheet would read as a formula starts with `'` (OWASP CSV injection). */
export const neutralized = (cell: string) => (/^[=+\-@]/.test(cell) ? `'${cell}` : cell);

function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.join('; ');
  if (typeof value === 'object') return String((value as { name?: unknown }).name ?? '');
  return String(value);
}

function record(row: FormWithRealm, r: FormResponseRow): string[] {
  const fixed = [r.id, r.submittedAt.toISOString(), r.status, r.spamReason, r.email, r.userId, r.locale];
  return [...fixed, ...row.form.fields.map((f) => r.answers[f.name])].map((v) => neutralized(cell(v)));
}

/** The export of a form the actor reads and may see the respondents of (`requireForm`), with the form's uid to name the file. */
export async function exportFormResponses(ctx: ActingContext, formUid: string, query: Parameters<typeof responseFilter>[1]): Promise<{ formUid: string; csv: Readable }> {
  const row = await requireForm(ctx, formUid, 'forms.read', true);
  return { formUid: row.form.uid, csv: await exportResponses(ctx, row, query) };
}

/**
 * The responses matching `query` as CSV (UTF-8 with a BOM, CRLF, a header, one column per field), read
 * page by page as the client takes the text: a slow reader slows the reads, and no more than one page is held.
 */
async function exportResponses(ctx: Context, row: FormWithRealm, query: Parameters<typeof responseFilter>[1]): Promise<Readable> {
  const where = responseFilter(row.form.id, query);
  async function* rows() {
    let after = 0;
    for (;;) {
      const page = await responsesAfter(ctx, where, after, EXPORT_PAGE);
      for (const r of page) yield record(row, r);
      if (page.length < EXPORT_PAGE) return;
      after = page[page.length - 1].id;
    }
  }
  // Loaded with the first export: a server that exports none never holds it.
  const { stringify } = await import('csv-stringify');
  const csv = stringify({ bom: true, record_delimiter: 'windows', header: true, columns: [...FIXED, ...row.form.fields.map((f) => f.name)].map(neutralized) });
  const source = Readable.from(rows());
  source.on('error', (err) => csv.destroy(err));
  return source.pipe(csv);
}
