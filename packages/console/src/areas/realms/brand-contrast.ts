/**
 * The realm pages' colour rule (the server's src/shared/html/brand.ts), for the branding preview: the text on
 * buttons is black or white, whichever reads best on the colour, and links take the colour only where it
 * reads on the page's background at 4.5:1 (WCAG 2 AA), else the browser's link colour.
 */
export const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
/** The pages' button colour when the realm sets none. */
export const DEFAULT_PRIMARY = '#1d4ed8';
/** The pages' background in each colour scheme (Chromium's Canvas). */
export const CANVAS = { light: '#ffffff', dark: '#121212' } as const;
const READABLE = 4.5;

function luminance(hex: string): number {
  const full = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join('') : hex.slice(1);
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

export const textOn = (background: string) => (contrast(background, '#ffffff') >= contrast(background, '#000000') ? '#ffffff' : '#000000');

/** Whether links on a page with that background take the colour. */
export const readableOn = (color: string, canvas: string) => contrast(color, canvas) >= READABLE;
