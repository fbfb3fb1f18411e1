import type { FieldErrors } from '../errors/index.js';
import { linkProblem } from '../http/links.js';
import { HEX_COLOR, POLICY_HOST } from '../shared/html/brand.js';
import { BRANDING_LIMITS } from './schema.js';
import type { realms } from '../tables/realms.js';

/** The realm's columns that say how its pages look. */
export type Brand = Pick<typeof realms.$inferSelect, 'name' | 'brandingLogoUrl' | 'brandingPrimaryColor' | 'brandingPageTitle'>;

export interface BrandingInput {
  logo_url?: string | null;
  primary_color?: string | null;
  page_title?: string | null;
}

type BrandingColumns = Partial<Pick<typeof realms.$inferInsert, 'brandingLogoUrl' | 'brandingPrimaryColor' | 'brandingPageTitle'>>;

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export const brandingBody = (realm: Brand) => ({
  logo_url: realm.brandingLogoUrl,
  primary_color: realm.brandingPrimaryColor,
  page_title: realm.brandingPageTitle,
});

function logoProblem(url: string): string | null {
  const problem = linkProblem(url, { max: BRANDING_LIMITS.logo_url, schemes: ['https'] });
  if (problem || url.startsWith('/')) return problem;
  const parsed = new URL(url);
  if (parsed.username || parsed.password) return 'may not contain a user name or password';
  if (!POLICY_HOST.test(parsed.hostname)) return 'must name its host by a domain name or an IPv4 address';
  return null;
}

/**
 * The columns a realm's branding input changes (left out: kept; null or blank: cleared). Problems are
 * added to `errors` under `settings.branding.<attribute>`.
 */
export function brandingChanges(input: BrandingInput | undefined, errors: FieldErrors): BrandingColumns {
  if (!input) return {};
  const changes: BrandingColumns = {};
  const field = (name: keyof BrandingInput) => `settings.branding.${name}`;
  if (input.logo_url !== undefined) {
    const url = input.logo_url?.trim() || null;
    const problem = url === null ? null : logoProblem(url);
    if (problem) errors.add(field('logo_url'), problem);
    changes.brandingLogoUrl = url;
  }
  if (input.primary_color !== undefined) {
    const color = input.primary_color?.trim().toLowerCase() || null;
    if (color !== null && !HEX_COLOR.test(color)) errors.add(field('primary_color'), 'must be a hex colour such as #1d4ed8 or #fff');
    changes.brandingPrimaryColor = color;
  }
  if (input.page_title !== undefined) {
    const title = input.page_title?.trim() || null;
    if (title !== null && title.length > BRANDING_LIMITS.page_title) {
      errors.add(field('page_title'), `is too long (maximum is ${BRANDING_LIMITS.page_title} characters)`);
    } else if (title !== null && CONTROL.test(title)) {
      errors.add(field('page_title'), 'may not contain control characters');
    }
    changes.brandingPageTitle = title;
  }
  return changes;
}
