import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainSending } from '../../src/messaging/worker.js';
import { axeViolations, startConsole, VARIANTS, type ConsoleHarness } from '../helpers/console.js';
import { createMember } from '../helpers/admin.js';
import { htmlPart, mailText, startSmtp, textPartOf, type SmtpListener } from '../helpers/smtp.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';
import { asPreview, makeCampaign, unfolded } from '../messaging/fixtures.js';

const TEXT = {
  en: {
    user: 'Preview for the user', preview: 'Preview', textTab: 'Text', testTo: 'Send a test to', sendTest: 'Send test', startsAt: 'Start at (empty: now)', send: 'Send', cancel: 'Cancel', recipients: 'Recipients now: 2', scheduled: 'scheduled', canceled: 'canceled', completed: 'completed', sent: 'sent',
    goesTo2: 'It goes to 2 recipients.', now: 'It is sent now.', at: /^It is sent on Jan 1, 2099.* \(your local time\)\.$/, sendNow: 'Send now', schedule: 'Schedule',
    realmAudience: 'Audience: every active user of the realm.', segmentAudience: 'Audience: the users of the segments VIP.',
    campaigns: 'Campaigns', create: 'New campaign', realm: 'Realm', name: 'Campaign name', subject: 'Subject (Liquid)', body: 'Body (Liquid)', chosen: 'Chosen segments', segments: 'Segments',
  },
  es: {
    user: 'Vista previa para el usuario', preview: 'Vista previa', textTab: 'Texto', testTo: 'Enviar una prueba a', sendTest: 'Enviar prueba', startsAt: 'Empezar a las (vacío: ahora)', send: 'Enviar', cancel: 'Cancelar', recipients: 'Destinatarios ahora: 2', scheduled: 'programado', canceled: 'cancelado', completed: 'completado', sent: 'enviado',
    goesTo2: 'Llega a 2 destinatarios.', now: 'Se envía ahora.', at: /^Se envía el 1 ene 2099.* \(tu hora local\)\.$/, sendNow: 'Enviar ahora', schedule: 'Programar',
    realmAudience: 'Destinatarios: todos los usuarios activos del reino.', segmentAudience: 'Destinatarios: los usuarios de los segmentos VIP.',
    campaigns: 'Campañas', create: 'Nueva campaña', realm: 'Reino', name: 'Nombre de la campaña', subject: 'Asunto (Liquid)', body: 'Cuerpo (Liquid)', chosen: 'Segmentos elegidos', segments: 'Segmentos',
  },
};

// The console runs against a server on the embedded database (issue 15); the PostgreSQL run skips it.
describe.skipIf(!!process.env.DATABASE_URL)('admin console: a campaign\'s test send, recipients, schedule, deliveries and messages', () => {
  let c: ConsoleHarness;
  let smtp: SmtpListener;
  beforeAll(async () => {
    smtp = await startSmtp();
    c = await startConsole({ SMTP_URL: smtp.url });
  }, 90_000);
  afterAll(async () => { await c?.close(); await smtp?.close(); });

  for (const { locale, scheme } of VARIANTS) {
    it(`sends a test identical to the server's preview, schedules and cancels a delivery, sends one and lists its messages (${locale}, ${scheme})`, async () => {
      const text = TEXT[locale];
      const realm = `send-${locale}`;
      expect((await c.h.request({ method: 'POST', url: '/api/admin/realms', payload: { uid: realm, name: realm } })).statusCode).toBe(201);
      const users = [];
      for (const [email, first_name] of [[`ana-${locale}@example.com`, 'Ana'], [`ben-${locale}@example.com`, 'Ben']]) {
        const res = await c.h.request({ method: 'POST', url: `/api/admin/customers/${realm}/users`, payload: { email, password: 'a realm user secret 9', first_name } });
        expect(res.statusCode, res.body).toBe(201);
        users.push(res.json());
      }
      await c.h.request({ method: 'POST', url: `/api/admin/customers/${realm}/users`, payload: { email: `off-${locale}@example.com`, password: 'a realm user secret 9', active: false } });
      const created = await c.h.request({
        method: 'POST', url: '/api/admin/messaging/campaigns',
        payload: { realm_uid: realm, name: 'Autumn', type: 'mailing', subject: 'Hi {{ user.first_name }}', body: '<p>Hello {{ user.first_name }}, welcome &amp; thanks</p>' },
      });
      const id = created.json().id as number;
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        await go(`/campaigns/${id}`);
        await page.locator('[data-recipient-count]').getByText(text.recipients).waitFor();

        // The preview the server renders for Ana, then a test to Ana's address: the same subject (after "[Test]") and body.
        await page.getByRole('combobox', { name: text.user }).fill(users[0].email.slice(0, 6));
        await page.getByRole('option', { name: users[0].email }).click();
        await page.getByRole('button', { name: text.preview }).click();
        const shown = page.locator('[data-preview]');
        await shown.waitFor();
        const [subject, body] = [await shown.locator('p').first().innerText(), await shown.locator('pre').innerText()];
        expect(subject).toBe('Hi Ana');
        await page.getByRole('textbox', { name: text.testTo }).fill(users[0].email);
        await page.getByRole('button', { name: text.sendTest }).click();
        const mail = await smtp.next(users[0].email);
        expect(unfolded(mail.raw)).toMatch(new RegExp(`^Subject: \\[Test\\] ${subject}\\r$`, 'm'));
        // The text part shown is the test's own (SMTP ends its lines with CRLF).
        expect(mailText(mail).replace(/\r\n/g, '\n')).toContain(body);
        expect(await axeViolations(page)).toEqual([]);

        // A delivery scheduled for later, then canceled.
        await page.getByLabel(text.startsAt).fill('2099-01-01T10:00');
        await page.getByRole('button', { name: text.send, exact: true }).click();
        // The confirmation states the sending time (local) and the count before anything is sent.
        const confirmation = page.getByRole('dialog');
        await confirmation.locator('[data-confirm-count]').getByText(text.goesTo2, { exact: true }).waitFor();
        await confirmation.getByText(text.at).waitFor();
        await confirmation.getByText(text.realmAudience, { exact: true }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await confirmation.getByRole('button', { name: text.schedule, exact: true }).click();
        const rows = page.locator('main table').last().locator('tbody tr');
        await rows.filter({ hasText: text.scheduled }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await rows.filter({ hasText: text.scheduled }).getByRole('button', { name: text.cancel }).click();
        await rows.filter({ hasText: text.canceled }).waitFor();
        const [canceled] = (await c.h.request({ url: `/api/admin/messaging/campaigns/${id}/deliveries` })).json().deliveries;
        expect(canceled.status).toBe('canceled');

        // A delivery now, sent by the server's sender: its counts, then its messages, one per active user.
        await page.getByRole('button', { name: text.send, exact: true }).click();
        await confirmation.getByText(text.now, { exact: true }).waitFor();
        await confirmation.locator('[data-confirm-count]').getByText(text.goesTo2, { exact: true }).waitFor();
        await confirmation.getByRole('button', { name: text.sendNow, exact: true }).click();
        await expect.poll(async () => (await c.h.request({ url: `/api/admin/messaging/campaigns/${id}/deliveries` })).json().deliveries.length).toBe(2);
        await drainSending(c.h.ctx);
        await page.reload();
        const done = rows.filter({ hasText: text.completed });
        await done.waitFor();
        await done.getByRole('button').first().click();
        const drawer = page.getByRole('dialog');
        for (const user of users) await drawer.locator(`[data-message="${user.email}"]`).getByText(text.sent, { exact: true }).waitFor();
        expect(await drawer.locator('[data-message]').count()).toBe(2);
        expect(await axeViolations(page)).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 90_000);
  }

  for (const { locale, scheme } of VARIANTS) {
    it(`creates a campaign aimed at a segment, confirms the count and sends it only to the segment's users (${locale}, ${scheme})`, async () => {
      const text = TEXT[locale];
      const realm = `aim-${locale}`;
      expect((await c.h.request({ method: 'POST', url: '/api/admin/realms', payload: { uid: realm, name: realm } })).statusCode).toBe(201);
      const [vip1, vip2, other] = [`vip1-${locale}@example.com`, `vip2-${locale}@example.com`, `other-${locale}@example.com`];
      for (const [email, first_name] of [[vip1, 'Vip'], [vip2, 'Vip'], [other, 'Other']]) {
        const res = await c.h.request({ method: 'POST', url: `/api/admin/customers/${realm}/users`, payload: { email, password: 'a realm user secret 9', first_name } });
        expect(res.statusCode, res.body).toBe(201);
      }
      const segment = await c.h.request({ method: 'POST', url: '/api/admin/segments', payload: { realm_uid: realm, name: 'VIP', filters: { all: [{ attribute: 'first_name', operator: 'eq', value: 'Vip' }] } } });
      expect(segment.statusCode, segment.body).toBe(201);
      let id = '';
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        await go('/campaigns');
        await page.getByRole('heading', { level: 1, name: text.campaigns }).waitFor();
        await page.getByRole('button', { name: text.create }).click();
        const dialog = page.getByRole('dialog');
        await dialog.waitFor();
        await dialog.getByLabel(new RegExp(`^${text.realm}`)).fill(realm);
        await page.getByRole('option', { name: new RegExp(realm) }).click();
        await dialog.getByRole('textbox', { name: text.name }).fill('VIP news');
        await dialog.getByRole('textbox', { name: text.subject }).fill('News for {{ user.first_name }}');
        await dialog.getByRole('textbox', { name: text.body }).fill('<p>Hello {{ user.first_name }}</p>');
        await dialog.getByRole('radio', { name: text.chosen }).check();
        await dialog.getByRole('combobox', { name: text.segments }).click();
        await page.getByRole('option', { name: 'VIP', exact: true }).click();
        await page.keyboard.press('Escape');
        expect(await axeViolations(page)).toEqual([]);
        await dialog.locator('button[type=submit]').click();
        await page.waitForURL(/\/admin\/campaigns\/\d+$/);
        id = page.url().split('/').pop()!;
        const saved = (await c.h.request({ url: `/api/admin/messaging/campaigns/${id}` })).json();
        expect(saved.segments_enabled).toBe(true);
        expect(saved.segments).toEqual([{ id: segment.json().id, name: 'VIP' }]);
        await page.locator('[data-recipient-count]').getByText(text.recipients).waitFor();
        expect(await axeViolations(page)).toEqual([]);

        await page.getByRole('button', { name: text.send, exact: true }).click();
        const confirmation = page.getByRole('dialog');
        await confirmation.locator('[data-confirm-count]').getByText(text.goesTo2, { exact: true }).waitFor();
        await confirmation.getByText(text.now, { exact: true }).waitFor();
        await confirmation.getByText(text.segmentAudience, { exact: true }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await confirmation.getByRole('button', { name: text.sendNow, exact: true }).click();
        await confirmation.waitFor({ state: 'hidden' });
        await expect.poll(async () => (await c.h.request({ url: `/api/admin/messaging/campaigns/${id}/deliveries` })).json().deliveries.length).toBe(1);
        await drainSending(c.h.ctx);
        for (const email of [vip1, vip2]) expect(unfolded((await smtp.next(email)).raw)).toMatch(/^Subject: News for Vip\r$/m);
        expect(smtp.received.filter((mail) => mail.to.includes(other))).toEqual([]);
        const [delivery] = (await c.h.request({ url: `/api/admin/messaging/campaigns/${id}/deliveries` })).json().deliveries;
        expect(delivery.reach).toBe(2);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }

      // A member who may send but not read the realm's users sees no count: the confirmation names the audience only.
      const role = await c.h.request({ method: 'POST', url: '/api/admin/roles', payload: { key: `sender_${locale}`, name: `Sender ${locale}`, context: 'realm', permissions: ['realms.read', 'segments.read', 'messaging.read', 'messaging.send'] } });
      expect(role.statusCode, role.body).toBe(201);
      const sender = await createMember(c.h, [{ key: `sender_${locale}`, target: realm }]);
      const other2 = await c.open({ locale, scheme });
      try {
        await other2.signIn(sender.email, sender.password);
        await other2.go(`/campaigns/${id}`);
        const send = other2.page.getByRole('button', { name: text.send, exact: true });
        await send.click();
        const confirmation = other2.page.getByRole('dialog');
        await confirmation.getByText(text.segmentAudience, { exact: true }).waitFor();
        expect(await other2.page.locator('[data-recipient-count]').count()).toBe(0);
        expect(await confirmation.locator('[data-confirm-count]').count()).toBe(0);
        expect(await axeViolations(other2.page)).toEqual([]);
        await confirmation.getByRole('button', { name: text.cancel, exact: true }).click();
        await confirmation.waitFor({ state: 'hidden' });
        expect((await c.h.request({ url: `/api/admin/messaging/campaigns/${id}/deliveries` })).json().deliveries.length).toBe(1);
        expect(other2.problems).toEqual([]);
      } finally {
        await other2.close();
      }
    }, 90_000);
  }

  for (const { locale, scheme } of VARIANTS) {
    it(`previews a campaign in a sandboxed frame equal to the HTML part smtp-server receives, but for the recipient's tokens (${locale}, ${scheme})`, async () => {
      const text = TEXT[locale];
      const realm = (await makeRealm(c.h)).uid;
      const email = `lucia-${locale}@example.com`;
      await makeRealmUser(c.h, realm, { email, first_name: 'Lucía', last_name: 'Pérez' });
      const { id } = await makeCampaign(c.h, realm, { body: '<p>Hello {{ user.first_name }}, this is <b>html</b></p>' });
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        await go(`/campaigns/${id}`);
        const picker = page.getByRole('combobox', { name: text.user });
        await picker.fill('lucia');
        // Once picked, the picker searches its own label, which finds no one: it keeps the user's name all the same, not their id.
        const searched = page.waitForResponse((res) => new URL(res.url()).searchParams.get('query') === `Lucía Pérez <${email}>`);
        await page.getByRole('option', { name: email }).click();
        await searched;
        await page.getByRole('button', { name: text.preview }).click();
        const frame = page.locator('iframe[data-preview-html]');
        await frame.waitFor();
        expect(await picker.inputValue()).toBe(`Lucía Pérez <${email}>`);
        // `<b>html</b>` is markup in the frame, which may run nothing and has no origin of the console's.
        await page.frameLocator('iframe[data-preview-html]').locator('b').getByText('html', { exact: true }).waitFor();
        expect(await frame.getAttribute('sandbox')).toBe('');
        const source = (await frame.getAttribute('srcdoc'))!;
        const shown = await page.frameLocator('iframe[data-preview-html]').locator(':root').evaluate((root) => root.outerHTML);
        await page.getByRole('tab', { name: text.textTab }).click();
        const textPart = await page.locator('[data-preview-text]').innerText();
        expect(await axeViolations(page)).toEqual([]);

        // Sent to that user by the server's sender: the HTML part received is the frame's, once the tokens are set aside.
        await page.getByRole('button', { name: text.send, exact: true }).click();
        await page.getByRole('dialog').getByRole('button', { name: text.sendNow, exact: true }).click();
        await expect.poll(async () => (await c.h.request({ url: `/api/admin/messaging/campaigns/${id}/deliveries` })).json().deliveries.length).toBe(1);
        await drainSending(c.h.ctx);
        const mail = await smtp.next(email);
        const received = asPreview(htmlPart(mail));
        expect(received).not.toBe(htmlPart(mail));
        expect(received).toBe(source);
        // Read by the browser as the frame read it, the received part makes the same document.
        expect(await page.evaluate((html) => new DOMParser().parseFromString(html, 'text/html').documentElement.outerHTML, received)).toBe(shown);
        expect(asPreview(textPartOf(mail, 'plain')).trimEnd()).toBe(textPart.trimEnd());
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 60_000);
  }
});
