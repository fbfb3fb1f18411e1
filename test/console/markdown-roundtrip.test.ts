import { describe, expect, it } from 'vitest';
import { getSchema } from '@tiptap/core';
import { Node } from '@tiptap/pm/model';
import { MarkdownManager } from '@tiptap/markdown';
import { markdownExtensions } from '../../packages/console/src/areas/content/markdown-extensions.js';

// The console's Markdown field: Markdown is parsed into the editor's document (its schema normalizes it), and
// saved back as Markdown. What is saved once must load and save again unchanged, or every save would rewrite text.
const extensions = markdownExtensions();
const schema = getSchema(extensions);
const markdown = new MarkdownManager({ extensions });
const loadAndSave = (text: string) => markdown.serialize(Node.fromJSON(schema, markdown.parse(text)).toJSON());

const CORPUS: Record<string, string> = {
  headings: '# Title\n\n## Section\n\n### Sub-section\n\nText under it.\n',
  emphasis: 'Some *emphasis*, **strong** text, ~~struck~~ and `inline code`, and ***both*** at once.\n',
  links: 'A [link](https://example.com/page?x=1) and [another one](/relative "with a title") in a line.\n',
  lists: '- one\n- two\n- three\n\n1. first\n2. second\n3. third\n',
  nested: '- fruit\n  - apple\n  - pear\n    - conference\n- vegetables\n  1. leek\n  2. kale\n',
  code: '```ts\nconst answer: number = 42;\nconsole.log(answer);\n```\n\n```\nplain block\n  indented\n```\n',
  quotes: '> A quote\n> over two lines\n\n> Another with **strong** text\n',
  mixed: '# Notes\n\nIntro with a [link](https://atrium.test).\n\n> Quoted\n\n- item with `code`\n  - nested *item*\n\n```js\nlet a = 1;\n```\n\nThe end.\n',
  unusual: 'Bullets with stars:\n\n* a\n* b\n\n__strong underscores__ and _emphasis underscores_\n\nSetext heading\n==============\n',
};

describe('Markdown through the console\'s Tiptap editor', () => {
  for (const [name, text] of Object.entries(CORPUS)) {
    it(`keeps ${name} unchanged after the first normalization`, () => {
      const once = loadAndSave(text);
      const twice = loadAndSave(once);
      expect(twice).toBe(once);
      expect(once.trim().length).toBeGreaterThan(0);
    });
  }

  it('keeps what is already in the normalized form exactly', () => {
    for (const name of ['headings', 'lists', 'nested', 'code', 'quotes']) expect(loadAndSave(CORPUS[name]!).trim()).toBe(CORPUS[name]!.trim());
  });
});
