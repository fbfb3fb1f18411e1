import type { Liquid } from 'liquidjs';
import type { Context } from '../context.js';
import { listEntries, showEntry } from '../content/delivery/delivery.js';
import { formBlockHtml } from '../forms/embed.js';
import { escapeHtml } from '../shared/html/markup.js';
import { renderSync } from '../shared/liquid.js';
import type { PageBlock } from '../tables/sites.js';
import { RENDER_LIMITS } from './liquid.js';
import type { MenuView } from './menus-view.js';

const PUBLIC_READER = { segments: [] };

/** What a block's rendering needs of the page being rendered. */
export interface BlockScope {
  ctx: Context;
  engine: Liquid;
  locale: string;
  defaultLocale: string;
  menus: Record<string, MenuView>;
  /** The Liquid scope of the page (site, page, locale, menus, user). */
  scope: Record<string, unknown>;
}

/** Markdown as HTML, with only what sanitize-html allows by default (no script, no event handler, no javascript: link). */
/**
 * Markdown as sanitized HTML. marked and sanitize-html are loaded with the first rich-text block (about 4 MB a server
 * without sites never holds).
 */
export async function richText(markdown: string): Promise<string> {
  const [{ marked }, { default: sanitizeHtml }] = await Promise.all([import('marked'), import('sanitize-html')]);
  return sanitizeHtml(marked.parse(markdown, { async: false }));
}

function snippetOr(b: BlockScope, snippet: unknown, scope: Record<string, unknown>, fallback: () => string): string {
  if (typeof snippet !== 'string' || !snippet) return fallback();
  const source = `{% render ${JSON.stringify(snippet)}, ${Object.keys(scope).map((k) => `${k}: ${k}`).join(', ')} %}`;
  return renderSync(b.engine, b.engine.parse(source), { ...b.scope, ...scope }, RENDER_LIMITS);
}

/** The delivery API's locale parameters of a page: its locale, falling back to the site's default. */
const inLocaleOf = (b: BlockScope): Record<string, string> =>
  (b.locale === b.defaultLocale ? { locale: b.locale } : { locale: b.locale, fallback_locale: b.defaultLocale });

/** A content list's entries through the delivery API's query engine: in the page's locale falling back to the site's default, else the space's default. */
async function deliveredList(b: BlockScope, block: PageBlock): Promise<Record<string, unknown>[]> {
  const raw: Record<string, unknown> = { ...(block.filters as Record<string, string> | undefined), per_page: String(block.limit ?? 10) };
  if (typeof block.sort === 'string' && block.sort) {
    raw.sort_by = block.sort.replace(/^-/, '');
    raw.order = block.sort.startsWith('-') ? 'desc' : 'asc';
  }
  const read = (locale?: Record<string, string>) => listEntries(b.ctx, String(block.space_uid), String(block.type_uid), { ...raw, ...locale }, PUBLIC_READER);
  const answer = await read(inLocaleOf(b)).catch(() => read());
  return (JSON.parse(answer.body) as { entries?: Record<string, unknown>[] }).entries ?? [];
}

async function deliveredEntry(b: BlockScope, block: PageBlock): Promise<Record<string, unknown> | null> {
  const read = (locale: Record<string, string>) => showEntry(b.ctx, String(block.space_uid), String(block.type_uid), String(block.entry_uuid), locale, PUBLIC_READER);
  const answer = await read(inLocaleOf(b)).catch(() => read({})).catch(() => null);
  return answer ? JSON.parse(answer.body) as Record<string, unknown> : null;
}

const entryName = (entry: Record<string, unknown>) => escapeHtml(String((entry.meta as { name?: unknown } | undefined)?.name ?? ''));

function menuHtml(items: MenuView['items']): string {
  if (!items.length) return '';
  return `<ul>${items.map((item) => `<li>${item.url ? `<a href="${escapeHtml(item.url)}">${escapeHtml(item.label)}</a>` : escapeHtml(item.label)}${menuHtml(item.children)}</li>`).join('')}</ul>`;
}

/** One block as HTML. A block that cannot be rendered (a missing snippet, a runaway Liquid block) leaves a comment, not the page. */
export async function blockHtml(b: BlockScope, block: PageBlock): Promise<string> {
  try {
    switch (block.type) {
      case 'rich_text': {
        const markdown = block.markdown as Record<string, string>;
        return await richText(markdown[b.locale] ?? markdown[b.defaultLocale] ?? '');
      }
      case 'content_list': {
        const entries = await deliveredList(b, block);
        return snippetOr(b, block.snippet, { entries }, () => `<ul class="content-list">${entries.map((e) => `<li>${entryName(e)}</li>`).join('')}</ul>`);
      }
      case 'content_entry': {
        const entry = await deliveredEntry(b, block);
        if (!entry) return '';
        return snippetOr(b, block.snippet, { entry }, () => `<article class="content-entry"><h2>${entryName(entry)}</h2></article>`);
      }
      case 'menu': {
        const menu = Object.hasOwn(b.menus, String(block.menu_uid)) ? b.menus[String(block.menu_uid)] : null;
        if (!menu) return '';
        return snippetOr(b, block.snippet, { menu }, () => `<nav aria-label="${escapeHtml(menu.name)}">${menuHtml(menu.items)}</nav>`);
      }
      case 'form':
        return await formBlockHtml(b.ctx, String(block.form_uid), b.locale);
      case 'liquid':
        return renderSync(b.engine, b.engine.parse(String(block.source)), b.scope, RENDER_LIMITS);
      default:
        return '';
    }
  } catch (err) {
    b.ctx.log.warn({ block: block.type, reason: (err as Error).message }, 'a site block could not be rendered');
    return `<!-- this ${escapeHtml(String(block.type))} block could not be rendered -->`;
  }
}
