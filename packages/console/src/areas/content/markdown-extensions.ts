import { Markdown } from '@tiptap/markdown';
import StarterKit from '@tiptap/starter-kit';

/** The editor's extensions: what a rich_text (Markdown) field may hold, read and written as Markdown. */
export const markdownExtensions = () => [
  StarterKit.configure({ link: { openOnClick: false, autolink: false } }),
  Markdown,
];
