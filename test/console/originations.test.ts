import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerAttachments } from '../../src/tables/originations.js';
import { createMember } from '../helpers/admin.js';
import { axeViolations, startConsole, VARIANTS, type ConsoleHarness, type Locale } from '../helpers/console.js';
import { OWNER_EMAIL } from '../helpers/harness.js';
import { makeRealm } from '../helpers/realms.js';
import { signedInUser } from '../notifications/fixtures.js';
import { asUser, attachmentOf, makeOrigination, startFor, tasksOf } from '../originations/fixtures.js';

const TEXT = {
  en: {
    originations: 'Originations', groups: 'Reviewer groups', submissions: 'Submissions', realm: 'Realm', user: 'User',
    newOrigination: 'New origination', name: 'Name', deadline: 'Deadline (days)', stepName: 'Step name', taskName: 'Task name',
    taskType: 'Task type', question: 'Question', answerType: 'Answer type', file: 'File', addTask: 'Add task', pendingReview: 'Pending review',
    content: 'Text shown while the review is pending', removeQuestion: 'Remove question', addQuestion: 'Add question', delete: 'Delete',
    newGroup: 'New reviewer group', groupName: 'Group name', members: 'Members', edit: 'Edit', download: /Download file/, save: 'Save',
    assign: 'Assign', reviewer: 'Reviewer', extend: 'Extend deadline', days: 'Days to add', complete: 'Complete', cancel: 'Cancel submission', userSubmissions: 'Submissions →', conflict: /conflicts with the current state/,
  },
  es: {
    originations: 'Originaciones', groups: 'Grupos revisores', submissions: 'Envíos', realm: 'Reino', user: 'Usuario',
    newOrigination: 'Nueva originación', name: 'Nombre', deadline: 'Plazo (días)', stepName: 'Nombre del paso', taskName: 'Nombre de la tarea',
    taskType: 'Tipo de tarea', question: 'Pregunta', answerType: 'Tipo de respuesta', file: 'Archivo', addTask: 'Añadir tarea', pendingReview: 'Revisión pendiente',
    content: 'Texto mostrado mientras la revisión está pendiente', removeQuestion: 'Quitar pregunta', addQuestion: 'Añadir pregunta', delete: 'Eliminar',
    newGroup: 'Nuevo grupo revisor', groupName: 'Nombre del grupo', members: 'Miembros', edit: 'Editar', download: /Descargar archivo/, save: 'Guardar',
    assign: 'Asignar', reviewer: 'Revisor', extend: 'Prorrogar plazo', days: 'Días que añadir', complete: 'Completar', cancel: 'Cancelar envío', userSubmissions: 'Envíos →', conflict: /choca con el estado actual/,
  },
};

/** Types into a server-searched picker and takes the option whose name matches. */
async function pick(page: Page, label: string, typed: string, option: RegExp | string) {
  await page.getByRole('combobox', { name: label, exact: true }).first().fill(typed);
  await page.getByRole('option', { name: option }).first().click();
}

/** Opens a (non-searchable) select by its label and takes an option. */
async function choose(page: Page, label: string, option: string, nth = 0) {
  await page.getByRole('combobox', { name: label, exact: true }).nth(nth).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

// The console's originations area (issue 15) against a server on the embedded database; the PostgreSQL run skips it.
describe.skipIf(!!process.env.DATABASE_URL)('admin console: originations, reviewer groups, submissions', () => {
  let c: ConsoleHarness;
  beforeAll(async () => { c = await startConsole(); }, 90_000);
  afterAll(async () => { await c?.close(); });

  const api = (url: string) => c.h.request({ url: `/api/admin${url}` });

  /** A realm with a user whose submission of a loan answered its form, a stored payslip with it. */
  async function submissionWithFile(locale: Locale) {
    const realm = await makeRealm(c.h, { name: `Bank ${locale}` });
    const user = await signedInUser(c.h, realm.uid);
    const loan = await makeOrigination(c.h, realm.uid);
    const submission = await startFor(c.h, realm.uid, loan.id, user.id);
    const form = tasksOf(loan)[0]!;
    const [name, income, birth, purpose, payslip] = form.questions;
    const fileId = await attachmentOf(c.h, realm.uid, user.id, payslip!.id);
    const [row] = await c.h.ctx.db.select().from(answerAttachments).where(eq(answerAttachments.id, fileId));
    await c.h.ctx.storage.put(row!.storageKey, Buffer.from('%PDF-1.4\n%%EOF\n'));
    const answered = await asUser(c.h, user.headers, 'PUT', realm.uid, `/submissions/${submission.uuid}/tasks/${form.uid}`, {
      fields: { [name!.id]: 'Ada Lovelace', [income!.id]: 4200, [birth!.id]: '1990-02-28', [purpose!.id]: 'car', [payslip!.id]: fileId },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    return { realm, user, submission, fileId };
  }

  for (const { locale, scheme } of VARIANTS) {
    it(`creates, edits and deletes an origination with its tasks and deadline, a reviewer group, and reviews a submission with its file (${locale}, ${scheme})`, async () => {
      const text = TEXT[locale];
      const { realm, user, submission, fileId } = await submissionWithFile(locale);
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        const nav = page.getByRole('navigation');

        // Originations: the realm picked with the server-searched picker, then a new one with a step, a file question and a deadline.
        await nav.getByRole('link', { name: text.originations }).click();
        await page.getByRole('heading', { level: 1, name: text.originations }).waitFor();
        await pick(page, text.realm, realm.uid, new RegExp(realm.uid));
        await page.waitForURL(new RegExp(`realm=${realm.uid}`));
        await page.getByRole('cell', { name: 'Personal loan' }).waitFor();
        await page.mouse.move(600, 5);
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('link', { name: text.newOrigination }).click();
        await page.getByRole('textbox', { name: text.name, exact: true }).fill(`Mortgage ${locale}`);
        await page.getByRole('textbox', { name: text.deadline, exact: true }).fill('10');
        await page.getByRole('textbox', { name: text.stepName, exact: true }).fill('Documents');
        await page.getByRole('textbox', { name: text.taskName, exact: true }).fill('Upload');
        await page.getByRole('textbox', { name: text.question, exact: true }).fill('Payslip');
        await choose(page, text.answerType, text.file);
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('button', { name: text.save }).click();
        await page.waitForURL(new RegExp(`/admin/originations/${realm.uid}/\\d+$`));
        const id = Number(/\/(\d+)$/.exec(page.url())![1]);
        let saved = (await api(`/customers/${realm.uid}/originations/${id}`)).json();
        expect(saved).toMatchObject({ name: `Mortgage ${locale}`, deadline_days: 10, steps: [{ name: 'Documents', tasks: [{ name: 'Upload', type: 'input', questions: [{ label: 'Payslip', type: 'file' }] }] }] });
        await page.getByRole('heading', { level: 1, name: `Mortgage ${locale}` }).waitFor();
        expect(await axeViolations(page)).toEqual([]);

        // A 422 lands on its field: an input task without a question.
        await page.getByRole('button', { name: text.removeQuestion }).click();
        await page.getByRole('button', { name: text.save }).click();
        await page.getByRole('alert').getByText('must hold at least one question on an input task', { exact: true }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('button', { name: text.addQuestion }).click();
        await page.getByRole('textbox', { name: text.question, exact: true }).fill('Payslip');

        // Edit: a second task, a pending review with its text, and another deadline.
        await page.getByRole('textbox', { name: text.name, exact: true }).fill(`Mortgage ${locale} v2`);
        await page.getByRole('textbox', { name: text.deadline, exact: true }).fill('20');
        await page.getByRole('button', { name: text.addTask }).click();
        await page.getByRole('textbox', { name: text.taskName, exact: true }).nth(1).fill('Review');
        await choose(page, text.taskType, text.pendingReview, 1);
        await page.getByRole('textbox', { name: text.content, exact: true }).fill('We check your papers.');
        await page.getByRole('button', { name: text.save }).click();
        await page.getByRole('heading', { level: 1, name: `Mortgage ${locale} v2` }).waitFor();
        saved = (await api(`/customers/${realm.uid}/originations/${id}`)).json();
        expect(saved.deadline_days).toBe(20);
        expect(saved.steps[0].tasks).toMatchObject([
          { name: 'Upload', type: 'input', questions: [{ label: 'Payslip', type: 'text' }] },
          { name: 'Review', type: 'pending_review', content: 'We check your papers.', questions: [] },
        ]);

        await page.getByRole('button', { name: text.delete }).first().click();
        await page.getByRole('dialog').waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('dialog').getByRole('button', { name: text.delete }).click();
        await page.waitForURL(new RegExp(`/admin/originations\\?realm=${realm.uid}$`));
        expect((await api(`/customers/${realm.uid}/originations/${id}`)).statusCode).toBe(404);
        // One with submissions is refused (409), with the server's reason.
        await page.getByRole('link', { name: 'Personal loan' }).click();
        await page.getByRole('button', { name: text.delete }).first().click();
        await page.getByRole('dialog').getByRole('button', { name: text.delete }).click();
        await page.getByText(text.conflict).waitFor();
        expect((await api(`/customers/${realm.uid}/originations`)).json().meta.total_entries).toBe(1);

        // Reviewer groups: create with a member picked from the server, a duplicate name refused on its field, rename, delete.
        await nav.getByRole('link', { name: text.groups }).click();
        await page.getByRole('heading', { level: 1, name: text.groups }).waitFor();
        await go(`/reviewer-groups?realm=${realm.uid}`);
        await page.getByRole('button', { name: text.newGroup }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('textbox', { name: text.groupName, exact: true }).fill('Underwriters');
        await dialog.getByRole('combobox', { name: text.members, exact: true }).fill('owner');
        await page.getByRole('option', { name: new RegExp(OWNER_EMAIL) }).click();
        await page.keyboard.press('Escape');
        expect(await axeViolations(page)).toEqual([]);
        await dialog.locator('button[type=submit]').click();
        await dialog.waitFor({ state: 'detached' });
        let groups = (await api(`/customers/${realm.uid}/groups`)).json().groups;
        expect(groups).toMatchObject([{ name: 'Underwriters', members: [{ email: OWNER_EMAIL }] }]);
        await page.getByRole('cell', { name: 'Underwriters' }).waitFor();
        expect(await axeViolations(page)).toEqual([]);

        await page.getByRole('button', { name: text.newGroup }).click();
        await dialog.getByRole('textbox', { name: text.groupName, exact: true }).fill('underwriters');
        await dialog.locator('button[type=submit]').click();
        await expect.poll(() => dialog.getByRole('textbox', { name: text.groupName, exact: true }).getAttribute('aria-invalid')).toBe('true');
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });

        await page.getByRole('button', { name: text.edit }).click();
        await dialog.getByRole('textbox', { name: text.groupName, exact: true }).fill('Risk team');
        await dialog.locator('button[type=submit]').click();
        await dialog.waitFor({ state: 'detached' });
        groups = (await api(`/customers/${realm.uid}/groups`)).json().groups;
        expect(groups).toMatchObject([{ name: 'Risk team', members: [{ email: OWNER_EMAIL }] }]);
        await page.getByRole('button', { name: text.delete }).click();
        await page.getByRole('dialog').getByRole('button', { name: text.delete }).click();
        await expect.poll(async () => (await api(`/customers/${realm.uid}/groups`)).json().groups).toEqual([]);

        // Submissions: the user picked from the server, the submission's answers with its file, a reviewer's actions.
        await nav.getByRole('link', { name: text.submissions }).click();
        await page.getByRole('heading', { level: 1, name: text.submissions }).waitFor();
        await go(`/submissions?realm=${realm.uid}`);
        await pick(page, text.user, 'Ada', /Ada Lovelace/);
        await page.waitForURL(new RegExp(`user=${user.id}`));
        await page.getByRole('link', { name: 'Personal loan' }).click();
        await page.waitForURL(new RegExp(`/admin/submissions/${realm.uid}/${submission.id}$`));
        const file = page.getByRole('link', { name: text.download });
        await file.waitFor();
        const href = await file.getAttribute('href');
        expect(href).toBe(`/api/admin/customers/${realm.uid}/attachments/${fileId}`);
        expect(await page.evaluate(async (url) => (await fetch(url)).status, href!)).toBe(200);
        await page.getByRole('cell', { name: 'Ada Lovelace' }).waitFor();
        expect(await axeViolations(page)).toEqual([]);

        await page.getByRole('button', { name: text.assign }).click();
        await pick(page, text.reviewer, 'owner', new RegExp(OWNER_EMAIL));
        expect(await axeViolations(page)).toEqual([]);
        await dialog.locator('button[type=submit]').click();
        await dialog.waitFor({ state: 'detached' });
        const url = `/customers/${realm.uid}/submissions/${submission.id}`;
        expect((await api(url)).json().assignee).toMatchObject({ type: 'user', label: expect.any(String) });

        await page.getByRole('button', { name: text.extend }).click();
        await dialog.getByRole('textbox', { name: text.days, exact: true }).fill('3');
        expect(await axeViolations(page)).toEqual([]);
        await dialog.locator('button[type=submit]').click();
        await dialog.waitFor({ state: 'detached' });
        expect((await api(url)).json().due_extension_days).toBe(3);

        await page.getByRole('button', { name: text.complete }).click();
        await expect.poll(async () => (await api(url)).json().tasks[1].status).toBe('completed');
        await page.getByRole('button', { name: text.cancel }).click();
        await dialog.waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });

        // The user's page links to their submissions.
        await page.getByRole('link', { name: 'Ada Lovelace' }).click();
        await page.getByRole('link', { name: text.userSubmissions }).click();
        await page.waitForURL(new RegExp(`/admin/submissions\\?realm=${realm.uid}&user=${user.id}$`));
        await page.getByRole('link', { name: 'Personal loan' }).waitFor();
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 120_000);
  }

  it('hides what a member who may only read cannot do: no create, edit, delete, start, assign, extend, cancel or complete', async () => {
    const { realm, submission } = await submissionWithFile('en');
    const origination = (await api(`/customers/${realm.uid}/originations`)).json().originations[0];
    const reader = await createMember(c.h, [{ key: 'account_user' }]);
    const { page, problems, signIn, go, close } = await c.open();
    try {
      await signIn(reader.email, reader.password);
      await go(`/originations?realm=${realm.uid}`);
      await page.getByRole('link', { name: 'Personal loan' }).click();
      await page.getByRole('heading', { level: 1, name: 'Personal loan' }).waitFor();
      expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
      expect(await page.getByText('Start a submission for a user').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Add step' }).isDisabled()).toBe(true);
      expect(page.url()).toContain(`/originations/${realm.uid}/${origination.id}`);
      await go(`/originations?realm=${realm.uid}`);
      await page.getByRole('link', { name: 'Personal loan' }).waitFor();
      expect(await page.getByRole('link', { name: 'New origination' }).count()).toBe(0);

      await go(`/reviewer-groups?realm=${realm.uid}`);
      await page.getByRole('heading', { level: 1, name: 'Reviewer groups' }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Nothing found' }).waitFor();
      expect(await page.getByRole('button', { name: 'New reviewer group' }).count()).toBe(0);

      await go(`/submissions/${realm.uid}/${submission.id}`);
      await page.getByRole('link', { name: /Download file/ }).waitFor();
      for (const name of ['Assign', 'Extend deadline', 'Cancel submission', 'Complete']) {
        expect(await page.getByRole('button', { name }).count()).toBe(0);
      }
      expect(await axeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);
});
