import { describe, expect, it } from 'vitest';
import { fieldLabelOf, fieldProblems } from '../../packages/console/src/api/field-labels.js';

// Issue 29 item 7: a 422's banner names attributes as the form does (the audit log's words: audit-words.test.ts, in Chromium).
describe('the console\'s names for the attributes a 422 names', () => {
  it('uses the form\'s label, else words made from the attribute, never its path', () => {
    expect(fieldLabelOf('settings.branding.logo_url', { 'settings.branding.logo_url': 'Logo address' })).toBe('Logo address');
    expect(fieldLabelOf('settings.branding.logo_url')).toBe('Logo url');
    expect(fieldLabelOf('fields.0.name')).toBe('Field 1: Name');
    expect(fieldLabelOf('fields.2.name', { 'fields': 'Campo {number}', 'fields.*.name': 'Identificador' })).toBe('Campo 3: Identificador');
    expect(fieldLabelOf('steps.1.fields.0.options', { steps: 'Step' })).toBe('Step 2: Field 1: Options');
    // Labels are looked up as own properties only.
    expect(fieldLabelOf('constructor')).toBe('Constructor');
    expect(fieldProblems([{ field: 'email', messages: ['is invalid'] }, { field: 'fields.0.name', messages: ["can't be blank", 'is too short'] }], { email: 'Email' }))
      .toBe("Email: is invalid · Field 1: Name: can't be blank, is too short");
  });
});
