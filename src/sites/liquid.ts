import type { Context as LiquidContext, Emitter, Liquid, TagToken, TopLevelToken } from 'liquidjs';
import { liquidjs, sandboxedLiquid, templateProblemAt, type SandboxLimits } from '../shared/liquid.js';
import { SITE_LIMITS } from './schema.js';

/** What one page's rendering may take and write. Past a limit the visitor gets the fallback page (a 500-free answer). */
export const RENDER_LIMITS: SandboxLimits = { source: SITE_LIMITS.source, output: 2 * 1024 * 1024, renderMs: 500, memory: 20_000_000 };

/** What a rendering's scope carries for the site's own tag and filter, beside what authors read. */
export interface RenderInternals {
  /** The HTML of each zone's blocks, already rendered and sanitized. */
  _zones: Record<string, string>;
  /** Each file's served address: `main.css` → `/sites/x/_assets/main.1a2b3c4d.css`. */
  _assets: Record<string, string>;
}

type TagClass = Parameters<Liquid['registerTag']>[1];
let zoneTag: TagClass | undefined;

/**
 * `{% zone "main" %}` writes the blocks of that zone of the page, unescaped: they were rendered and sanitized already.
 * Made on first use, from liquidjs's Tag (loaded then).
 */
const zoneTagClass = (): TagClass => (zoneTag ??= class ZoneTag extends liquidjs().Tag {
  private readonly zone: string;

  constructor(token: TagToken, remain: TopLevelToken[], liquid: Liquid) {
    super(token, remain, liquid);
    this.zone = token.args.trim().replace(/^(['"])(.*)\1$/, '$2');
  }

  render(ctx: LiquidContext, emitter: Emitter): void {
    const zones = (ctx.environments as Partial<RenderInternals>)._zones ?? {};
    emitter.write(Object.hasOwn(zones, this.zone) ? zones[this.zone] : '');
  }
});

/**
 * The engine of one site version: HTML-escaping output, the sandbox of every author's template, the
 * snippets as the only partials (`{% render "card", entry: entry %}`), `{% zone %}` and `| asset_url`.
 */
export function siteEngine(snippets: Record<string, string>): Liquid {
  const engine = sandboxedLiquid(RENDER_LIMITS, true, snippets);
  engine.registerTag('zone', zoneTagClass());
  engine.registerFilter('asset_url', function (this: { context: LiquidContext }, name: unknown) {
    const assets = (this.context.environments as Partial<RenderInternals>)._assets ?? {};
    return typeof name === 'string' && Object.hasOwn(assets, name) ? assets[name] : '';
  });
  return engine;
}

let checker: Liquid | undefined;

/** Why Liquid source does not parse, with its line and column (`is not valid Liquid: line 3, column 7: ...`), or null. */
export function liquidProblem(source: string): string | null {
  try {
    (checker ??= siteEngine({})).parse(source);
    return null;
  } catch (err) {
    const { message, line, column } = templateProblemAt(err);
    return `is not valid Liquid: ${line ? `line ${line}${column ? `, column ${column}` : ''}: ` : ''}${message}`;
  }
}
