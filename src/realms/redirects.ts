import type { Context } from '../context.js';
import { isRealmDomain } from './realms.js';

/**
 * Where a realm page may send the browser after it: a path on this server (one leading "/", not
 * "//"), or an absolute http(s) address on the base address's origin or on a realm's custom domain.
 * Anything else gives null, and the page goes to its default instead.
 */
export async function safeRedirect(ctx: Context, raw: unknown): Promise<string | null> {
  if (typeof raw !== 'string' || !raw || raw.length > 4096) return null;
  // Browsers drop tabs and newlines and read "\" as "/": "/\evil.example" would leave the site.
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return null;
  const base = new URL(ctx.config.baseUrl);
  if (raw.startsWith('/')) {
    if (raw.startsWith('//')) return null;
    return new URL(raw, base).origin === base.origin ? raw : null;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return null;
  if (url.origin === base.origin) return url.href;
  // A realm's custom domain is served over https (http only where the base address itself is http).
  if (url.protocol === 'http:' && base.protocol === 'https:') return null;
  return await isRealmDomain(ctx, url.hostname) ? url.href : null;
}
