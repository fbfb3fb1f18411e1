import type { Template } from 'liquidjs';
import { renderSync, sandboxOnFirstUse, TemplateError, type SandboxLimits } from '../shared/liquid.js';
import { SourceCache } from '../shared/source-cache.js';
import type { LocaleContent, TemplateContent } from './shipped.js';

/** What one field of a template may be and write. */
export const TEMPLATE_LIMITS = { subject: 300, body: 200 * 1024 };
const RENDER_LIMITS: SandboxLimits = { source: TEMPLATE_LIMITS.body, output: 1024 * 1024, renderMs: 200, memory: 10_000_000 };

/** The HTML body escapes what `{{ }}` writes (`| raw` opts out); the subject and the text are plain text. */
const htmlEngine = sandboxOnFirstUse(RENDER_LIMITS, true);
const textEngine = sandboxOnFirstUse(RENDER_LIMITS, false);

export const FIELDS = ['subject', 'html', 'text'] as const;
export type Field = typeof FIELDS[number];

export const engineOf = (field: Field) => (field === 'html' ? htmlEngine() : textEngine());

/** A mail as it is sent: the subject on one line, the HTML (empty: none) with its CSS inlined. */
export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

/** Parsed once per source: the same templates render every mail of a kind. */
const parsed = new SourceCache<Template[]>();

const parse = (field: Field, source: string): Template[] =>
  parsed.get(`${field === 'html' ? 'h' : 't'}:${source}`, () => engineOf(field).parse(source));

const renderField = (field: Field, source: string, variables: object) =>
  renderSync(engineOf(field), parse(field, source), variables, RENDER_LIMITS);

/** Compiles MJML (after Liquid) to HTML; an MJML error is a TemplateError naming its line. */
export async function compileMjml(source: string): Promise<string> {
  // Loaded when first needed: mjml is large, and most accounts never write MJML.
  const { default: mjml } = await import('mjml');
  // mj-include would read files of the server's disk into the mail: ignored (mjml 5's default, said here).
  const { html, errors } = await mjml(source, { validationLevel: 'soft', ignoreIncludes: true });
  if (errors.length) throw new TemplateError(`MJML: line ${errors[0].line}: ${errors[0].message}`);
  return html;
}

/**
 * Renders one language of a template with its variables: Liquid, then MJML when the body is MJML, then
 * the CSS inlined with juice for the clients that drop `<style>`. Throws TemplateError.
 */
export async function renderContent(format: TemplateContent['format'], content: LocaleContent, variables: Record<string, unknown>): Promise<RenderedMail> {
  const subject = renderField('subject', content.subject, variables).replace(/\s+/g, ' ').trim();
  const text = renderField('text', content.text, variables);
  let html = content.html.trim() ? renderField('html', content.html, variables) : '';
  if (html && format === 'mjml') html = await compileMjml(html);
  if (!html) return { subject, text, html: '' };
  // Loaded with the first HTML mail: juice and its HTML and CSS parsers are about 14 MB a server at rest need not hold.
  const { default: juice } = await import('juice');
  return { subject, text, html: juice(html) };
}
