import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations } from '../helpers/console.js';
import { png } from '../uploads/files.js';

/** The console's words the content journey clicks and reads, in each language. */
export const TEXT = {
  en: {
    spaces: 'Content spaces', newSpace: 'New space', uid: 'Identifier', name: 'Name', defaultLocale: 'Default locale', locales: 'Locales',
    newType: 'New content type', addField: 'Add field', field: 'Field', fieldLabel: 'Label', fieldIdentifier: 'Field identifier', fieldType: 'Field type', options: 'Choices',
    required: 'Required', localized: 'Localized', filterable: 'Indexed for filters', entries: 'Entries', newEntry: 'New entry', slug: 'Slug', locale: 'Locale', saveDraft: 'Save draft',
    publish: 'Publish', unpublish: 'Unpublish', notPublished: 'Not published', sourceView: 'Markdown source', link: 'Link', linkAddress: 'Link address', assets: 'Assets', upload: 'Upload', file: 'File', title: 'Title', edit: 'Edit',
    delete: 'Delete', save: 'Save', moveUp: 'Move field', removeField: 'Remove field', remove: 'Remove', stay: 'Stay', leave: 'Leave', latitude: 'Latitude', longitude: 'Longitude',
    addTo: 'Add to', schedule: 'Schedule', unpublishAt: 'Unpublish at', nextMonth: 'Next month', confirmDate: 'Confirm the date and time', cancel: 'Cancel', types: 'Content types', published: 'Published', tags: 'Tags', category: 'Category', deleteEntry: 'Delete entry', private: 'Private', addSegment: 'Add a segment that may read it',
    typeNames: {
      text: 'Text', rich_text: 'Rich text', integer: 'Whole number', decimal: 'Decimal number', boolean: 'Yes or no', date: 'Date', dropdown: 'Dropdown',
      checkbox: 'Checkboxes', location: 'Location', asset: 'File', entry: 'Linked entry', entries: 'Linked entries',
    } as Record<string, string>,
  },
  es: {
    spaces: 'Espacios de contenido', newSpace: 'Nuevo espacio', uid: 'Identificador', name: 'Nombre', defaultLocale: 'Idioma predeterminado', locales: 'Idiomas',
    newType: 'Nuevo tipo de contenido', addField: 'Añadir campo', field: 'Campo', fieldLabel: 'Etiqueta', fieldIdentifier: 'Identificador del campo', fieldType: 'Tipo de campo', options: 'Opciones',
    required: 'Obligatorio', localized: 'Por idioma', filterable: 'Indexado para filtros', entries: 'Entradas', newEntry: 'Nueva entrada', slug: 'Slug', locale: 'Idioma de la entrada', saveDraft: 'Guardar borrador',
    publish: 'Publicar', unpublish: 'Retirar', notPublished: 'Sin publicar', sourceView: 'Código Markdown', link: 'Enlace', linkAddress: 'Dirección del enlace', assets: 'Archivos', upload: 'Subir', file: 'Archivo', title: 'Título', edit: 'Editar',
    delete: 'Eliminar', save: 'Guardar', moveUp: 'Subir el campo', removeField: 'Quitar el campo', remove: 'Quitar', stay: 'Quedarse', leave: 'Salir', latitude: 'Latitud', longitude: 'Longitud',
    addTo: 'Añadir a', schedule: 'Programar', unpublishAt: 'Retirar el', nextMonth: 'Mes siguiente', confirmDate: 'Confirmar la fecha y la hora', cancel: 'Cancelar', types: 'Tipos de contenido', published: 'Publicada', tags: 'Etiquetas', category: 'Categoría', deleteEntry: 'Eliminar entrada', private: 'Privada', addSegment: 'Añadir un segmento que puede leerla',
    typeNames: {
      text: 'Texto', rich_text: 'Texto enriquecido', integer: 'Número entero', decimal: 'Número decimal', boolean: 'Sí o no', date: 'Fecha', dropdown: 'Desplegable',
      checkbox: 'Casillas', location: 'Ubicación', asset: 'Archivo', entry: 'Entrada enlazada', entries: 'Entradas enlazadas',
    } as Record<string, string>,
  },
};
export type Text = typeof TEXT.en;

/** A content type with a field of every type the API knows; `title` is localized and required. */
export const FIELDS: { name: string; type: string; options?: string[]; localized?: boolean; required?: boolean; filterable?: boolean }[] = [
  { name: 'title', type: 'text', localized: true, required: true },
  { name: 'body', type: 'rich_text' },
  { name: 'count', type: 'integer' },
  { name: 'price', type: 'decimal', filterable: true },
  { name: 'featured', type: 'boolean' },
  { name: 'launch', type: 'date' },
  { name: 'colour', type: 'dropdown', options: ['red', 'green'] },
  { name: 'sizes', type: 'checkbox', options: ['s', 'm', 'l'] },
  { name: 'place', type: 'location' },
  { name: 'cover', type: 'asset' },
  { name: 'related', type: 'entry' },
  { name: 'parts', type: 'entries' },
];

export const MARKDOWN = '# Heading\n\nSome *emphasis* and a [link](https://example.com).\n\n- one\n  - nested\n\n> quoted\n';

/** A label exactly so, with or without the asterisk of a required field. */
export const exactly = (label: string) => new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`);

/** Fails with the violations when axe finds any on the page as it is. */
export async function expectAccessible(page: Page): Promise<void> {
  expect(await axeViolations(page)).toEqual([]);
}

/** Picks an option of a Mantine select (or combobox) labelled so, within `scope`. */
export async function choose(page: Page, scope: ReturnType<Page['locator']> | Page, label: string, option: string, typed?: string): Promise<void> {
  const input = scope.getByLabel(exactly(label)).first();
  await input.click();
  if (typed) await input.fill(typed);
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Adds the fields of FIELDS in the type form (in a dialog or on the type screen), each by its label, the identifier derived from it. */
export async function addFields(page: Page, scope: ReturnType<Page['locator']>, text: Text): Promise<void> {
  for (const [i, field] of FIELDS.entries()) {
    await scope.getByRole('button', { name: text.addField }).click();
    const row = scope.getByRole('group', { name: `${text.field} ${i + 1}`, exact: true });
    await row.getByLabel(text.fieldLabel).fill(field.name);
    expect(await row.getByLabel(text.fieldIdentifier).inputValue()).toBe(field.name);
    if (field.type !== 'text') await choose(page, row, text.fieldType, text.typeNames[field.type]!);
    if (field.options) await row.getByLabel(text.options).fill(field.options.join('\n'));
    if (field.localized) await row.getByLabel(text.localized).check();
    if (field.required) await row.getByLabel(text.required).check();
    if (field.filterable) await row.getByLabel(text.filterable).check();
  }
}

/** Fills every field of a new entry in the editor (English, then the Spanish tab), uploading the asset from its field. */
export async function fillEntry(page: Page, text: Text): Promise<void> {
  await page.getByLabel(exactly(text.name)).fill('Hello');
  await page.getByLabel(exactly('title')).fill('Hello world');
  await page.getByLabel(exactly(text.slug)).fill('Not a slug!');
  await page.getByLabel(text.category).fill('news/world');
  await page.getByRole('combobox', { name: text.tags }).fill('first');
  await page.getByRole('combobox', { name: text.tags }).press('Enter');
  await page.locator('label').filter({ hasText: text.sourceView }).click();
  await page.locator('[data-markdown-source]').fill(MARKDOWN);
  await page.getByLabel(exactly('count')).fill('42');
  await page.getByLabel(exactly('price')).fill('9.5');
  await page.getByLabel(exactly('featured')).check();
  await page.getByLabel(exactly('launch')).click();
  await page.getByRole('button', { name: text.nextMonth }).waitFor();
  await expectAccessible(page);
  await page.getByLabel(exactly('launch')).fill('2026-03-15');
  await page.getByLabel(exactly('launch')).press('Tab');
  await choose(page, page, 'colour', 'green');
  await page.getByLabel(exactly('m')).check();
  await page.getByLabel(exactly('l')).check();
  await page.getByLabel(`place: ${text.latitude}`).fill('40.4');
  await page.getByLabel(`place: ${text.longitude}`).fill('-3.7');
  await page.locator('input[type=file]').first().setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: png() });
  await expect.poll(() => page.getByLabel(exactly('cover')).first().inputValue()).toBe('cover.png');
  await choose(page, page, 'related', 'Target entry', 'Targ');
  await choose(page, page, `${text.addTo} parts`, 'Target entry', 'Targ');
  expect(await page.locator('[data-markdown-source]').count()).toBe(1);
  await expectAccessible(page);
  await page.getByRole('tab', { name: 'es' }).click();
  await page.getByLabel(exactly(text.name)).fill('Hola');
  await page.getByLabel(exactly('title')).fill('Hola mundo');
}

/** Schedules the entry's unpublishing on the 15th of next month through the schedule dialog and its calendar. */
export async function scheduleUnpublish(page: Page, text: Text): Promise<void> {
  await page.getByRole('button', { name: text.schedule }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(text.unpublishAt).click();
  await page.getByRole('button', { name: text.nextMonth }).click();
  await expectAccessible(page);
  await page.locator('button[class*=DateTimePicker-day]').filter({ hasText: /^15$/ }).click();
  await page.getByRole('button', { name: text.confirmDate }).click();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: text.save }).click();
  await dialog.waitFor({ state: 'detached' });
}
