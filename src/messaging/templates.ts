import type { Template } from 'liquidjs';
import { renderSync, sandboxOnFirstUse, templateProblem, TemplateError } from '../shared/liquid.js';
import { FieldErrors } from '../errors/index.js';

export { TemplateError, templateProblem };

/** The limits of a campaign's templates and of what one rendering may produce. */
export const TEMPLATE_LIMITS = {
  subject: 255,
  body: 100_000,
  /** Characters one rendering may write; past it the rendering is ended. */
  output: 512 * 1024,
  /** Milliseconds one rendering may take when a campaign is saved or previewed (liquidjs checks between nodes). */
  renderMs: 200,
  /**
   * The same while sending: the template was shown to render in time when saved, so this only ends a
   * rendering that user data makes run away; wider, so that a pause of a busy process fails no message.
   */
  sendingRenderMs: 2_000,
  /** liquidjs's count of what one rendering allocates (filters such as append, join, split). */
  memory: 4_000_000,
} as const;

const LIMITS = { source: TEMPLATE_LIMITS.body, output: TEMPLATE_LIMITS.output, renderMs: TEMPLATE_LIMITS.renderMs, memory: TEMPLATE_LIMITS.memory };
/** Plain text: subjects and notification bodies. */
const textEngine = sandboxOnFirstUse(LIMITS, false);
/** A mailing's HTML body: every value written by `{{ }}` is HTML-escaped. */
const htmlEngine = sandboxOnFirstUse(LIMITS, true);

export type TemplateKind = 'text' | 'html';

const engineOf = (kind: TemplateKind) => (kind === 'html' ? htmlEngine() : textEngine());

/** A parsed template, or the error naming the line where it does not parse. */
export function parseTemplate(source: string, kind: TemplateKind): Template[] {
  return engineOf(kind).parse(source);
}

/** Renders a parsed template within the time, memory and output limits; throws TemplateError past any. */
export function renderTemplate(templates: Template[], kind: TemplateKind, scope: object, limitMs: number = TEMPLATE_LIMITS.renderMs): string {
  return renderSync(engineOf(kind), templates, scope, { output: TEMPLATE_LIMITS.output, renderMs: limitMs });
}

export interface CampaignTemplates {
  subject: Template[];
  body: Template[];
  bodyKind: TemplateKind;
}

/** A campaign's subject and body parsed, each checked against its length limit; one 422 names every problem. */
export function checkTemplates(subject: string, body: string, bodyKind: TemplateKind): CampaignTemplates {
  const errors = new FieldErrors();
  const parse = (field: string, source: string, kind: TemplateKind, limit: number) => {
    if (source.length > limit) {
      errors.add(field, `is too long (maximum is ${limit} characters)`);
      return [];
    }
    try {
      return parseTemplate(source, kind);
    } catch (err) {
      errors.add(field, `is not a valid Liquid template: ${templateProblem(err)}`);
      return [];
    }
  };
  const parsed = {
    subject: parse('subject', subject, 'text', TEMPLATE_LIMITS.subject),
    body: parse('body', body, bodyKind, TEMPLATE_LIMITS.body),
    bodyKind,
  };
  errors.throwIfAny();
  return parsed;
}
