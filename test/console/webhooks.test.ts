import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainWebhooks } from '../../src/webhooks/worker.js';
import { axeViolations, startConsole, VARIANTS, type ConsoleHarness } from '../helpers/console.js';
import { makeRealm } from '../helpers/realms.js';
import { emit } from '../webhooks/emit.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';

const TEXT = {
  en: { webhooks: 'Webhooks', create: 'New webhook', url: 'Address (URL)', types: 'Event types', description: 'Description', close: 'Close', retry: 'Retry', delete: 'Delete', test: 'Send a test event', retried: (id: number) => `Retried webhook delivery ${id}`, allRealms: 'Every realm', realms: 'Realms' },
  es: { webhooks: 'Webhooks', create: 'Nuevo webhook', url: 'Dirección (URL)', types: 'Tipos de evento', description: 'Descripción', close: 'Cerrar', retry: 'Reintentar', delete: 'Eliminar', test: 'Enviar un evento de prueba', retried: (id: number) => `Reintentó la entrega de webhook ${id}`, allRealms: 'Todos los reinos', realms: 'Reinos' },
};

describe.skipIf(!!process.env.DATABASE_URL)('admin console: webhooks, their deliveries and a retry in the audit log', () => {
  let c: ConsoleHarness;
  let receiver: Receiver;
  let realmUid: string;
  beforeAll(async () => {
    c = await startConsole({ WEBHOOKS_ALLOW_PRIVATE: '1' });
    receiver = await startReceiver(c.h.clock, () => ({ status: 500, body: 'down' }));
    realmUid = (await makeRealm(c.h)).uid;
  }, 90_000);
  afterAll(async () => { await receiver?.close(); await c?.close(); });

  for (const { locale, scheme } of VARIANTS) {
    it(`creates an endpoint (secret once), sees a failed delivery's attempts, retries it, finds the retry in the audit log, edits and deletes (${locale}, ${scheme})`, async () => {
      const text = TEXT[locale];
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        await page.getByRole('navigation').getByRole('link', { name: text.webhooks }).click();
        await page.getByRole('button', { name: text.create }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel(text.url).fill(`${receiver.url}/hook-${locale}`);
        await dialog.getByLabel(text.types).first().click();
        await page.getByRole('option', { name: 'realm_user.updated', exact: true }).click();
        await page.keyboard.press('Escape');
        expect(await axeViolations(page)).toEqual([]);
        await dialog.locator('button[type=submit]').click();
        const secret = await dialog.locator('[data-secret]').innerText();
        expect(secret).toMatch(/^whsec_/);
        expect(await axeViolations(page)).toEqual([]);
        await dialog.getByRole('button', { name: text.close }).last().click();
        await page.waitForURL(/\/admin\/webhooks\/\d+$/);
        const id = Number(/webhooks\/(\d+)$/.exec(page.url())![1]);
        expect(JSON.stringify((await c.h.request({ url: `/api/admin/webhooks/${id}` })).json())).not.toContain(secret);

        await emit(c.h, 'realm_user.updated', realmUid, { id: 1, changed: ['first_name'] });
        await drainWebhooks(c.h.ctx);
        await go(`/webhooks/${id}`);
        await page.getByRole('button', { name: 'realm_user.updated' }).click();
        const drawer = page.getByRole('dialog');
        await drawer.getByRole('cell', { name: '500' }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        const [delivery] = (await c.h.request({ url: `/api/admin/webhooks/${id}/deliveries` })).json().deliveries;
        await drawer.getByRole('button', { name: text.retry }).click();
        await drawer.waitFor({ state: 'detached' });
        await expect.poll(async () => (await c.h.request({ url: `/api/admin/logs?resource_id=${delivery.id}` })).json().logs.length).toBeGreaterThan(0);
        const [entry] = (await c.h.request({ url: `/api/admin/logs?resource_id=${delivery.id}` })).json().logs;

        expect(entry.operation).toBe('POST /webhooks/deliveries/{id}/retry');
        await go(`/audit?resource_type=deliveries&resource_id=${delivery.id}`);
        await page.locator('main table tbody tr').filter({ hasText: text.retried(delivery.id) }).first().waitFor();

        // A test event on demand: it shows among the deliveries, and reaches the receiver once sent.
        await go(`/webhooks/${id}`);
        const heard = receiver.received.length;
        await page.getByRole('button', { name: text.test }).click();
        await page.getByRole('button', { name: 'webhook.test' }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await drainWebhooks(c.h.ctx);
        expect(receiver.received.slice(heard).map((r) => JSON.parse(r.body).type).filter((type) => type === 'webhook.test')).toEqual(['webhook.test']);

        await page.getByLabel(text.description).fill('Orders');
        // Its realms are picked by name, searched on the server, never typed as identifiers.
        await page.getByLabel(text.allRealms).uncheck();
        const realms = page.getByLabel(text.realms, { exact: true }).first();
        await realms.click();
        await realms.fill(realmUid);
        await page.getByRole('option', { name: new RegExp(realmUid) }).click();
        await page.keyboard.press('Escape');
        expect(await axeViolations(page)).toEqual([]);
        await page.locator('main form button[type=submit]').click();
        await expect.poll(async () => (await c.h.request({ url: `/api/admin/webhooks/${id}` })).json()).toMatchObject({ description: 'Orders', realm_uids: [realmUid] });
        await page.getByRole('button', { name: text.delete }).first().click();
        await page.getByRole('dialog').getByRole('button', { name: text.delete }).click();
        await page.waitForURL(/\/admin\/webhooks$/);
        expect((await c.h.request({ url: `/api/admin/webhooks/${id}` })).statusCode).toBe(404);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 90_000);
  }
});
