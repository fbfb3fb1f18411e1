import { Context as LiquidContext, Liquid, LiquidError, toValueSync, type Template } from 'liquidjs';
import { FieldErrors } from '../errors/index.js';

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

/** Nothing is read from files: `include`, `render` and `layout` find nothing. */
const NO_FILES = {
  exists: async () => false,
  existsSync: () => false,
  readFile: async () => { throw new Error('templates cannot read files'); },
  readFileSync: () => { throw new Error('templates cannot read files'); },
  resolve: (_root: string, file: string) => file,
  contains: async () => false,
  sep: '/',
  dirname: () => '',
};

const options = {
  fs: NO_FILES, root: [], relativeReference: false, ownPropertyOnly: true, strictFilters: true,
  parseLimit: TEMPLATE_LIMITS.body, renderLimit: TEMPLATE_LIMITS.renderMs, memoryLimit: TEMPLATE_LIMITS.memory,
};
/** Plain text: subjects and notification bodies. */
const textEngine = new Liquid(options);
/** A mailing's HTML body: every value written by `{{ }}` is HTML-escaped. */
const htmlEngine = new Liquid({ ...options, outputEscape: 'escape' });

export type TemplateKind = 'text' | 'html';

const engineOf = (kind: TemplateKind) => (kind === 'html' ? htmlEngine : textEngine);

export class TemplateError extends Error {}

/** Collects the output and ends the rendering once it passes the limit (no rope of megabytes is ever flattened). */
class LimitedEmitter {
  buffer = '';

  write(html: unknown): void {
    const text = typeof html === 'string' ? html : html === null || html === undefined ? '' : String(html);
    if (this.buffer.length + text.length > TEMPLATE_LIMITS.output) {
      throw new TemplateError(`the rendered text is longer than ${TEMPLATE_LIMITS.output} characters`);
    }
    this.buffer += text;
  }
}

/** A parsed template, or the error naming the line where it does not parse. */
export function parseTemplate(source: string, kind: TemplateKind): Template[] {
  return engineOf(kind).parse(source);
}

/** What went wrong in a template, for an admin: liquidjs's message carries `line:N, col:M`. */
export function templateProblem(err: unknown): string {
  if (err instanceof TemplateError) return err.message;
  if (err instanceof LiquidError) {
    const [message] = err.message.split(', line:');
    const line = /line:(\d+)/.exec(err.message)?.[1];
    return line ? `line ${line}: ${message}` : message;
  }
  if (err instanceof RangeError) return 'the rendered text is too long';
  return (err as Error).message;
}

/**
 * Renders a parsed template within the time, memory and output limits; throws TemplateError past any.
 * Synchronously: no tag or filter of ours waits for anything, and liquidjs's promise path allocated
 * about 50 KB per campaign message (a promise per step of its render generators).
 */
export function renderTemplate(templates: Template[], kind: TemplateKind, scope: object, limitMs: number = TEMPLATE_LIMITS.renderMs): string {
  const engine = engineOf(kind);
  const ctx = new LiquidContext(scope, engine.options, { renderLimit: limitMs, sync: true }, { liquid: engine });
  const emitter = new LimitedEmitter();
  try {
    toValueSync(engine.renderer.renderTemplates(templates, ctx, emitter));
  } catch (err) {
    throw new TemplateError(templateProblem(err));
  }
  return emitter.buffer;
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
