import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember } from '../helpers/admin.js';
import { startConsole, type ConsoleHarness } from '../helpers/console.js';
import { expectAccessible } from './content-steps.js';

describe.skipIf(!!process.env.DATABASE_URL)('admin console: content for a member of one space', () => {
  let c: ConsoleHarness;
  beforeAll(async () => { c = await startConsole(); }, 90_000);
  afterAll(async () => { await c?.close(); });

  it('hides what a space writer may not do, and runs no stored script', async () => {
    const api = (method: 'POST' | 'GET', url: string, payload?: object) => c.h.request({ method, url: `/api/admin/content/spaces${url}`, payload });
    expect((await api('POST', '', { uid: 'notes', name: 'Notes', default_locale: 'en' })).statusCode).toBe(201);
    expect((await api('POST', '/notes/types', { uid: 'note', name: 'Note', fields: [{ name: 'body', type: 'rich_text' }] })).statusCode).toBe(201);
    const hostile = '<img src=x onerror="window.bad=1">';
    const entry = await api('POST', '/notes/types/note/entries', { name: hostile, fields: { body: `# Hi\n\n<script>window.bad=2</script>\n\n${hostile}\n` } });
    expect(entry.statusCode, entry.body).toBe(201);
    const writer = await createMember(c.h, [{ key: 'space_writer', target: 'notes' }]);
    const { page, problems, signIn, go, close } = await c.open();
    try {
      await go('/sign-in');
      await signIn(writer.email, writer.password);
      await go('/content');
      await page.getByRole('link', { name: 'notes' }).waitFor();
      expect(await page.getByRole('button', { name: 'New space' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
      await go('/content/notes');
      await page.getByRole('link', { name: 'note', exact: true }).waitFor();
      expect(await page.getByRole('button', { name: 'New content type' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Edit type' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Fields' }).click();
      await page.getByRole('cell', { name: 'Rich text', exact: true }).waitFor();
      expect(await page.locator('main form').count()).toBe(0);
      await expectAccessible(page);
      await go(`/content/notes/types/note/entries/${entry.json().meta.uuid}`);
      await page.getByRole('button', { name: 'Save draft' }).waitFor();
      await page.getByRole('heading', { level: 2, name: hostile }).waitFor();
      await page.getByRole('heading', { level: 1, name: 'Hi' }).or(page.getByRole('textbox', { name: 'body' }).getByRole('heading', { name: 'Hi' })).first().waitFor();
      expect(await page.getByRole('button', { name: 'Publish' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Schedule' }).count()).toBe(0);
      await expectAccessible(page);
      await go('/content/notes/assets');
      await page.getByRole('button', { name: 'Upload' }).waitFor();
      expect(await page.evaluate(() => (window as unknown as { bad?: number }).bad)).toBeUndefined();
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);
});
