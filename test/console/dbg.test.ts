import { it } from 'vitest';
import { startConsole } from '../helpers/console.js';
it('dbg', async () => {
  const c = await startConsole();
  const { page, problems, go, signIn } = await c.open();
  page.on('console', (m) => console.log('C>', m.type(), m.text().slice(0, 300)));
  page.on('response', (r) => console.log('R>', r.status(), r.url()));
  await signIn();
  await go('/realms');
  await page.waitForTimeout(2000);
  console.log('PROBLEMS', problems);
  await page.screenshot({ path: '/tmp/dbg.png' }); await c.close();
}, 60000);
