import type { Brand } from '../../realms/branding.js';
import { html, type Markup } from './markup.js';

export const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
// A Content-Security-Policy host-source holds only these; a URL's host may hold more (";" or "'", say).
export const POLICY_HOST = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/;

/** The address's origin when it is an absolute https address, for the pages' Content-Security-Policy; null for a path. */
export function logoOrigin(url: string): string | null {
  if (url.startsWith('/')) return null;
  const parsed = new URL(url);
  return POLICY_HOST.test(parsed.hostname) ? parsed.origin : null;
}

// What the layout's background is in each colour scheme (Chromium's Canvas).
const LIGHT_CANVAS = '#ffffff';
const DARK_CANVAS = '#121212';
/** WCAG 2 AA for normal text. */
const READABLE = 4.5;

const channels = (hex: string) => {
  const full = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join('') : hex.slice(1);
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255);
};

/** WCAG 2 relative luminance of a hex colour. */
function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** The text colour (black or white) that reads best on a background colour. */
export const textOn = (background: string) => (contrast(background, '#ffffff') >= contrast(background, '#000000') ? '#ffffff' : '#000000');

/**
 * The custom properties the layout's style reads: the brand colour of buttons and of the underline of
 * links, the text colour on buttons, and the colour of links' text where the brand colour is readable
 * on the page's background in that colour scheme (else the browser's link colour stays).
 */
export function brandStyle(brand: Brand | undefined): string {
  const color = brand?.brandingPrimaryColor;
  // Checked when stored, and again here: the value is written into a style sheet.
  if (!color || !HEX_COLOR.test(color)) return '';
  const link = (canvas: string) => (contrast(color, canvas) >= READABLE ? color : 'LinkText');
  return `:root { --atrium-primary: ${color}; --atrium-on-primary: ${textOn(color)}; --atrium-link: ${link(LIGHT_CANVAS)}; }
@media (prefers-color-scheme: dark) { :root { --atrium-link: ${link(DARK_CANVAS)}; } }`;
}

/** The realm's logo above the page, named by the realm's name for those who cannot see it. */
export function logo(brand: Brand | undefined): Markup | '' {
  if (!brand?.brandingLogoUrl) return '';
  return html`<header><img class="logo" src="${brand.brandingLogoUrl}" alt="${brand.name}"></header>`;
}

/**
 * No script, no plugin, styles only from the page itself; images from this server and, when the realm's
 * logo is on another server, from that origin only.
 */
export function contentSecurityPolicy(brand: Brand | undefined): string {
  const origin = brand?.brandingLogoUrl ? logoOrigin(brand.brandingLogoUrl) : null;
  return `default-src 'none'; style-src 'unsafe-inline'; img-src 'self'${origin ? ` ${origin}` : ''}; base-uri 'none'; frame-ancestors 'none'`;
}
