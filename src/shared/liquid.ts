import type * as LiquidJs from 'liquidjs';
import type { Liquid, LiquidOptions, Template } from 'liquidjs';
import { lazyRequire } from './lazy-require.js';

/** liquidjs, loaded when a template is first parsed or rendered: a server that renders none never holds its 5 MB. */
export const liquidjs = lazyRequire<typeof LiquidJs>('liquidjs');

/**
 * The Liquid sandbox every template of an author runs in (campaigns, site layouts): nothing is read from
 * files, only own properties are seen, unknown filters are errors, and one rendering is bounded in time,
 * in what it allocates and in what it writes.
 */
export interface SandboxLimits {
  /** Characters a template may have. */
  source: number;
  /** Characters one rendering may write; past it the rendering is ended. */
  output: number;
  /** Milliseconds one rendering may take (liquidjs checks between nodes). */
  renderMs: number;
  /** liquidjs's count of what one rendering allocates (filters such as append, join, split). */
  memory: number;
}

/** Nothing is read from files: `include`, `render` and `layout` find nothing unless `templates` names it. */
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

export class TemplateError extends Error {}

/**
 * A sandboxed engine. `escape` HTML-escapes every value written by `{{ }}` (the `raw` filter opts out);
 * `templates` are the only partials `render` and `include` find (a site's snippets).
 */
export function sandboxedLiquid(limits: SandboxLimits, escape: boolean, templates?: Record<string, string>): Liquid {
  const options: LiquidOptions = {
    fs: NO_FILES, root: [], relativeReference: false, ownPropertyOnly: true, strictFilters: true,
    parseLimit: limits.source, renderLimit: limits.renderMs, memoryLimit: limits.memory,
    ...(escape ? { outputEscape: 'escape' as const } : {}),
    ...(templates ? { templates } : {}),
  };
  return new (liquidjs().Liquid)(options);
}

/** The same engine, made on first use (a module's engines would otherwise load liquidjs at start). */
export function sandboxOnFirstUse(limits: SandboxLimits, escape: boolean): () => Liquid {
  let engine: Liquid | undefined;
  return () => (engine ??= sandboxedLiquid(limits, escape));
}

/** Collects the output and ends the rendering once it passes the limit (no rope of megabytes is ever flattened). */
class LimitedEmitter {
  buffer = '';

  constructor(private readonly limit: number) {}

  write(html: unknown): void {
    const text = typeof html === 'string' ? html : html === null || html === undefined ? '' : String(html);
    if (this.buffer.length + text.length > this.limit) throw new TemplateError(`the rendered text is longer than ${this.limit} characters`);
    this.buffer += text;
  }
}

/** Where a template went wrong: liquidjs's message carries `line:N, col:M`. */
export function templateProblemAt(err: unknown): { message: string; line: number | null; column: number | null } {
  if (err instanceof TemplateError) return { message: err.message, line: null, column: null };
  const loaded = liquidjs.ifLoaded();
  if (loaded && err instanceof loaded.LiquidError) {
    const [message] = err.message.split(', line:');
    const line = /line:(\d+)/.exec(err.message)?.[1];
    const column = /col:(\d+)/.exec(err.message)?.[1];
    return { message, line: line ? Number(line) : null, column: column ? Number(column) : null };
  }
  if (err instanceof RangeError) return { message: 'the rendered text is too long', line: null, column: null };
  return { message: (err as Error).message, line: null, column: null };
}

/** What went wrong in a template, for an admin: `line 3: ...`. */
export function templateProblem(err: unknown): string {
  const { message, line } = templateProblemAt(err);
  return line ? `line ${line}: ${message}` : message;
}

/**
 * Renders parsed templates within the engine's limits; throws TemplateError past any. Synchronously: no
 * tag or filter of ours waits for anything, and liquidjs's promise path allocated about 50 KB per
 * rendering (a promise per step of its render generators).
 */
export function renderSync(engine: Liquid, templates: Template[], scope: object, limits: Pick<SandboxLimits, 'output' | 'renderMs'>): string {
  const { Context, toValueSync } = liquidjs();
  const ctx = new Context(scope, engine.options, { renderLimit: limits.renderMs, sync: true }, { liquid: engine });
  const emitter = new LimitedEmitter(limits.output);
  try {
    toValueSync(engine.renderer.renderTemplates(templates, ctx, emitter));
  } catch (err) {
    throw new TemplateError(templateProblem(err));
  }
  return emitter.buffer;
}
