import type { MessageKey } from '../../i18n/catalogue';

/** The three kinds of a site's design, as they appear in the console's paths and in the admin API's. */
export type DesignKind = 'layouts' | 'snippets' | 'files';
export const DESIGN_KINDS: DesignKind[] = ['layouts', 'snippets', 'files'];
export const isDesignKind = (kind: string): kind is DesignKind => (DESIGN_KINDS as string[]).includes(kind);

export const KIND_TITLES: Record<DesignKind, MessageKey> = { layouts: 'sites.layouts', snippets: 'sites.snippets', files: 'sites.files' };
export const KIND_NEW: Record<DesignKind, MessageKey> = { layouts: 'sites.newLayout', snippets: 'sites.newSnippet', files: 'sites.newFile' };

/** A layout, snippet or file as the design screens show it: the text is `source` for templates, `body` for files. */
export interface DesignItem { id: number; name: string; text: string; updated_at: string }

/** The language the editor highlights a design item in. */
export type CodeLanguage = 'liquid' | 'css' | 'javascript';
export const languageOf = (kind: DesignKind, name: string): CodeLanguage =>
  kind !== 'files' ? 'liquid' : name.endsWith('.js') ? 'javascript' : 'css';

/** The lock kind of a design item (docs/features/sites.md, "Edit locks"). */
export const lockTypeOf = (kind: DesignKind) => (kind === 'files' ? 'site_file' : 'site_template');
