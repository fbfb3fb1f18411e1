import { html, Markup } from '../shared/html/markup.js';
import type { FieldError } from '../errors/index.js';
import type { FormRow, StoredField } from '../tables/forms.js';
import { labelOf } from './answers.js';
import { HONEYPOT } from './definition.js';
import { formTexts } from './texts.js';

/** Extra rules for the form's controls, beside the realm pages' style. */
export const FORM_STYLE = `
fieldset { border: 1px solid GrayText; border-radius: .4rem; padding: 1rem; display: grid; gap: 1rem; }
legend { font-weight: 700; padding: 0 .3rem; }
textarea, select { font: inherit; padding: .6rem .7rem; border: 1px solid GrayText; border-radius: .4rem; }
.choice { display: flex; gap: .5rem; align-items: center; font-weight: 400; }
.help { font-weight: 400; font-size: .9rem; color: GrayText; margin: 0; }
.field-error { color: #b00020; font-weight: 600; margin: 0; }
.hp { position: absolute; left: -10000px; width: 1px; height: 1px; overflow: hidden; }
`;

export interface FormView {
  form: FormRow;
  locale: string;
  action: string;
  token: string;
  /** What the respondent sent, to show again beside the errors. */
  values?: Record<string, unknown>;
  errors?: FieldError[];
}

/** The name of a multiple choice's checkbox of option `i`: one part per option, so multipart forms (first value of a name) keep every choice. */
export const choicePart = (field: string, i: number) => `${field}.${i}`;

function control(field: StoredField, view: FormView, id: string, invalid: boolean): Markup {
  const value = view.values?.[field.name];
  const text = typeof value === 'string' ? value : '';
  const aria = invalid ? 'true' : 'false';
  const label = (labels: Record<string, string>) => labelOf(labels, view.locale, view.form.defaultLocale);
  const required = field.required;
  switch (field.type) {
    case 'long_text':
      return html`<textarea id="${id}" name="${field.name}" rows="5" ${required ? new Markup('required') : ''} aria-invalid="${aria}">${text}</textarea>`;
    case 'single_choice':
      return html`<select id="${id}" name="${field.name}" aria-invalid="${aria}"><option value=""></option>${field.options!.map((o) =>
        html`<option value="${o.value}"${o.value === text ? new Markup(' selected') : ''}>${label(o.labels)}</option>`)}</select>`;
    case 'multiple_choice':
      return html`<span id="${id}">${field.options!.map((o, i) => html`<label class="choice"><input type="checkbox" name="${choicePart(field.name, i)}" value="${o.value}"${
        Array.isArray(value) && value.includes(o.value) ? new Markup(' checked') : ''}> ${label(o.labels)}</label>`)}</span>`;
    case 'checkbox': case 'consent':
      return html`<input id="${id}" type="checkbox" name="${field.name}" value="true"${value === true || value === 'true' ? new Markup(' checked') : ''} aria-invalid="${aria}">`;
    case 'file':
      return html`<input id="${id}" type="file" name="${field.name}" aria-invalid="${aria}">`;
    default: {
      const type = field.type === 'email' ? 'email' : field.type === 'number' ? 'number' : field.type === 'date' ? 'date' : 'text';
      return html`<input id="${id}" type="${type}" name="${field.name}" value="${text}"${field.type === 'number' ? new Markup(' step="any"') : ''} aria-invalid="${aria}">`;
    }
  }
}

function fieldMarkup(field: StoredField, view: FormView): Markup {
  const t = formTexts(view.locale);
  const id = `f-${field.name}`;
  const error = view.errors?.find((e) => e.field === field.name);
  const help = field.help ? labelOf(field.help, view.locale, view.form.defaultLocale) : '';
  const label = labelOf(field.labels, view.locale, view.form.defaultLocale);
  // Conditional fields are always sent: without JavaScript the server decides, and ignores the answer of a hidden one.
  const condition = field.show_if ? html` data-show-if="${field.show_if.field}"` : '';
  const inline = field.type === 'checkbox' || field.type === 'consent';
  const caption = html`${label}${field.required ? '' : html` <span class="help">${t.optional}</span>`}`;
  const body = inline
    ? html`<label class="choice" for="${id}">${control(field, view, id, !!error)} ${caption}</label>`
    : html`<label for="${id}">${caption}</label>${control(field, view, id, !!error)}`;
  return html`<div class="field"${condition}>${body}${help ? html`<p class="help">${help}</p>` : ''}${
    error ? html`<p class="field-error" id="${id}-error">${error.messages.join(', ')}</p>` : ''}</div>`;
}

/**
 * The form's markup, for its hosted page and for a site page's form block: every step as a fieldset on one
 * page (it works without JavaScript), the honeypot off screen, the single-use token and the language hidden.
 */
export function formMarkup(view: FormView): Markup {
  const { form } = view;
  const t = formTexts(view.locale);
  const byName = new Map(form.fields.map((f) => [f.name, f]));
  const steps = form.steps.length ? form.steps : [{ labels: {}, fields: form.fields.map((f) => f.name) }];
  const multipart = form.fields.some((f) => f.type === 'file');
  const sections = steps.map((step) => {
    const inner = step.fields.map((name) => byName.get(name)).filter((f): f is StoredField => !!f).map((f) => fieldMarkup(f, view));
    const legend = labelOf(step.labels, view.locale, form.defaultLocale);
    return legend ? html`<fieldset><legend>${legend}</legend>${inner}</fieldset>` : html`${inner}`;
  });
  return html`<form method="post" action="${view.action}"${multipart ? new Markup(' enctype="multipart/form-data"') : ''} novalidate>
${view.errors?.length ? html`<p class="alert" role="alert">${t.fixErrors}</p>` : ''}
<input type="hidden" name="form_token" value="${view.token}">
<input type="hidden" name="locale" value="${view.locale}">
<div class="hp" aria-hidden="true"><label>${t.honeypot} <input type="text" name="${HONEYPOT}" tabindex="-1" autocomplete="off"></label></div>
${sections}
<button type="submit">${t.submit}</button>
</form>`;
}
