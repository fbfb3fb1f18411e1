import { FieldErrors } from '../errors/index.js';
import type { PageBlock } from '../tables/sites.js';
import { liquidProblem } from './liquid.js';
import { SITE_LIMITS } from './schema.js';
import type { Site } from './sites.js';

export const BLOCK_TYPES = ['rich_text', 'content_list', 'content_entry', 'menu', 'liquid', 'form'] as const;
const ZONE = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** What each block type needs besides `zone` and `type`. */
const REQUIRED: Record<(typeof BLOCK_TYPES)[number], string[]> = {
  rich_text: ['markdown'],
  content_list: ['space_uid', 'type_uid'],
  content_entry: ['space_uid', 'type_uid', 'entry_uuid'],
  menu: ['menu_uid'],
  liquid: ['source'],
  form: ['form_uid'],
};

/** A page's blocks checked against its site: zones named, content read from the site's spaces, Liquid that parses. */
export function checkBlocks(errors: FieldErrors, blocks: PageBlock[], site: Site): PageBlock[] {
  if (blocks.length > SITE_LIMITS.blocks) {
    errors.add('blocks', `are too many (maximum is ${SITE_LIMITS.blocks})`);
    return blocks;
  }
  for (const [i, block] of blocks.entries()) {
    const at = `blocks.${i}`;
    if (!ZONE.test(block.zone)) errors.add(`${at}.zone`, 'must be lower-case letters, digits, "-" and "_"');
    const type = block.type as keyof typeof REQUIRED;
    for (const key of REQUIRED[type]) if (block[key] === undefined || block[key] === '') errors.add(`${at}.${key}`, "can't be blank");
    if ((type === 'content_list' || type === 'content_entry') && typeof block.space_uid === 'string' && !site.spaceUids.includes(block.space_uid)) {
      errors.add(`${at}.space_uid`, 'is not one of the site\'s content spaces');
    }
    if (type === 'rich_text' && block.markdown && typeof block.markdown === 'object') {
      for (const locale of Object.keys(block.markdown)) {
        if (!site.locales.includes(locale)) errors.add(`${at}.markdown`, `names ${locale.slice(0, 20)}, not a locale of the site`);
      }
    }
    if (type === 'liquid' && typeof block.source === 'string') {
      const problem = liquidProblem(block.source);
      if (problem) errors.add(`${at}.source`, problem);
    }
  }
  return blocks;
}
