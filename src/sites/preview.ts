import { createHmac } from 'node:crypto';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import { invalidField } from '../errors/index.js';
import { secretsKey } from '../security/secrets-key.js';
import { safeEqual } from '../security/secrets.js';
import { requirePage } from './layout-pages.js';

/** How long a preview link opens the drafts. */
export const PREVIEW_MINUTES = 10;

const signature = (ctx: Context, payload: string) => createHmac('sha256', secretsKey(ctx.config)).update(`site-preview:${payload}`).digest('base64url');

/**
 * A signed, short-lived link showing a page of the drafts as it would be published (site.read): anyone
 * holding it may look until it expires, so it names one page and lives ten minutes.
 */
export async function previewLink(ctx: ActingContext, siteUid: string, pageId: number, locale: string | undefined) {
  const { site, page } = await requirePage(ctx, siteUid, pageId, 'site.read');
  const chosen = locale ?? site.defaultLocale;
  if (!site.locales.includes(chosen)) throw invalidField('locale', 'is not a locale of the site');
  const expires = new Date(ctx.clock.now().getTime() + PREVIEW_MINUTES * 60_000);
  const payload = Buffer.from(JSON.stringify([site.id, page.id, chosen, expires.getTime()])).toString('base64url');
  return { url: `/sites/${site.uid}/_preview/${payload}.${signature(ctx, payload)}`, expires_at: expires.toISOString() };
}

export type PreviewCheck = { kind: 'valid' | 'expired'; siteId: number; pageId: number; locale: string } | { kind: 'invalid' };

/** What a preview token opens: a forged or garbled one nothing, an expired one nothing either (410 rather than 404). */
export function checkPreview(ctx: Context, token: string): PreviewCheck {
  const [payload, mac] = token.split('.');
  if (!payload || !mac || token.length > 500 || !safeEqual(signature(ctx, payload), mac)) return { kind: 'invalid' };
  try {
    const [siteId, pageId, locale, expires] = JSON.parse(Buffer.from(payload, 'base64url').toString()) as [number, number, string, number];
    return { kind: expires > ctx.clock.now().getTime() ? 'valid' : 'expired', siteId, pageId, locale };
  } catch {
    return { kind: 'invalid' };
  }
}
