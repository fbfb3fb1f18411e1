import { describe, expect, it } from 'vitest';
import { fieldLabelOf, fieldProblems } from '../../packages/console/src/api/field-labels.js';
import { auditOutcome, describeAuditEntry } from '../../packages/console/src/areas/identity/audit-words.js';
import { translate } from '../../packages/console/src/i18n/i18n.js';
import type { Locale } from '../../packages/console/src/i18n/define.js';

const tIn = (locale: Locale) => (key: Parameters<typeof translate>[1], values?: Record<string, string | number>) => translate(locale, key, values);
const entry = (operation: string, resource_type: string | null, resource_id: string | null, resource_label: string | null = null, realm: { uid: string; name: string | null } | null = null) =>
  ({ operation, resource_type, resource_id, resource_label, realm, status_code: 200 });

describe('the console\'s words for server vocabulary', () => {
  it('names a 422\'s attribute by the form\'s label, else by words made from it, never by its path', () => {
    expect(fieldLabelOf('settings.branding.logo_url', { 'settings.branding.logo_url': 'Logo address' })).toBe('Logo address');
    expect(fieldLabelOf('settings.branding.logo_url')).toBe('Logo url');
    expect(fieldLabelOf('fields.0.name')).toBe('Field 1: Name');
    expect(fieldLabelOf('fields.2.name', { 'fields': 'Campo {number}', 'fields.*.name': 'Identificador' })).toBe('Campo 3: Identificador');
    expect(fieldLabelOf('steps.1.fields.0.options', { steps: 'Step' })).toBe('Step 2: Field 1: Options');
    // Keys are looked up as own properties only.
    expect(fieldLabelOf('constructor')).toBe('Constructor');
    expect(fieldProblems([{ field: 'email', messages: ['is invalid'] }, { field: 'fields.0.name', messages: ["can't be blank", 'is too short'] }], { email: 'Email' }))
      .toBe("Email: is invalid · Field 1: Name: can't be blank, is too short");
  });

  it('says an audit entry as a sentence, from its route\'s own sentence or from its method and resource', () => {
    const acme = { uid: 'acme', name: 'Acme' };
    for (const [locale, expected] of [
      ['en', ['Changed user Ana Pérez in realm Acme', 'Ended every session of user Ana Pérez in realm Acme', 'Created realm Acme', 'Changed scheduled publishes 4', 'Signed in', 'Deleted user 9 in realm acme']],
      ['es', ['Cambió el usuario Ana Pérez en el reino Acme', 'Cerró todas las sesiones del usuario Ana Pérez en el reino Acme', 'Creó el reino Acme', 'Cambió scheduled publishes 4', 'Inició sesión', 'Eliminó el usuario 9 en el reino acme']],
    ] as const) {
      const t = tIn(locale);
      expect([
        describeAuditEntry(entry('PUT /customers/{realm_uid}/users/{id}', 'users', '7', 'Ana Pérez', acme), t),
        describeAuditEntry(entry('DELETE /customers/{realm_uid}/users/{id}/sessions', 'users', '7', 'Ana Pérez', acme), t),
        describeAuditEntry(entry('POST /realms', 'realms', 'acme', 'Acme', acme), t),
        // A kind the console has no word for yet keeps the generic sentence.
        describeAuditEntry(entry('PUT /sites/{site_uid}/scheduled_publishes/{id}', 'scheduled_publishes', '4'), t),
        describeAuditEntry(entry('sign_in', null, null), t),
        describeAuditEntry(entry('DELETE /customers/{realm_uid}/users/{id}', 'users', '9', null, { uid: 'acme', name: null }), t),
      ]).toEqual(expected);
    }
    expect([200, 401, 403, 429, 500, null].map((status) => auditOutcome(status, tIn('en')))).toEqual(['Done', 'Refused', 'Refused', 'Too many attempts', 'Failed', '—']);
  });
});
