import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, memberToken } from '../helpers/realms.js';
import { makeForm, ok, responses } from './helpers.js';

let h: Harness;
let realm: { uid: string };

beforeAll(async () => {
  h = await startHarness();
  realm = await makeRealm(h);
});
afterAll(async () => { await h?.close(); });

const FIELDS = [
  { name: 'name', type: 'text', required: true, labels: { en: 'Name' } },
  { name: 'email', type: 'email', labels: { en: 'Email' } },
  { name: 'tags', type: 'multiple_choice', labels: { en: 'Tags' }, options: [{ value: 'a', labels: { en: 'A' } }, { value: 'b', labels: { en: 'B' } }] },
  { name: 'ok', type: 'checkbox', labels: { en: 'OK' } },
];
const quick = { min_fill_seconds: 0, rate_limit_per_hour: 0 };

async function fill(uid: string, answers: Record<string, unknown>) {
  const def = await ok(await h.request({ method: 'GET', url: `/api/content/forms/${uid}`, token: null }));
  return ok(await h.request({ method: 'POST', url: `/api/content/forms/${uid}/responses`, token: null, payload: { token: def.token, answers } }), 201);
}

describe('responses', () => {
  it('lists with filters and meta, exports whole as CSV (BOM, CRLF, formulas escaped), deletes', async () => {
    const form = await makeForm(h, { fields: FIELDS, steps: [], spam: quick });
    const rows = [
      { name: '=HYPERLINK("http://evil")', email: 'one@example.com', tags: ['a', 'b'], ok: true },
      { name: 'Plain, "quoted"\nline', email: 'two@example.com', tags: ['b'] },
      { name: '+1 -2 @3', tags: [] },
      { name: 'Ünïcode ✓', email: 'four@example.com', ok: false },
    ];
    for (const r of rows) { await fill(form.uid, r); h.clock.advance(60_000); }
    const page = await ok(await h.request({ method: 'GET', url: `/api/admin/forms/${form.uid}/responses?per_page=3&page=2` }));
    expect(page.meta).toEqual({ total_entries: 4, per_page: 3, current_page: 2, total_pages: 2 });
    expect(page.responses.map((r: { email: string | null }) => r.email)).toEqual(['one@example.com']);
    expect((await responses(h, form.uid, '&field=tags&value=b')).map((r: { email: string }) => r.email)).toEqual(['two@example.com', 'one@example.com']);
    expect((await responses(h, form.uid, '&field=email&value=four@example.com'))).toHaveLength(1);
    const all = await responses(h, form.uid);
    const since = encodeURIComponent(all[1].submitted_at);
    expect(await responses(h, form.uid, `&from=${since}`)).toHaveLength(2);
    expect(await responses(h, form.uid, '&status=spam')).toHaveLength(0);

    const csv = await h.request({ method: 'GET', url: `/api/admin/forms/${form.uid}/responses.csv` });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(csv.body.split('\r\n')).toHaveLength(6);
    const parsed: string[][] = parse(csv.rawPayload, { bom: true, record_delimiter: '\r\n' });
    expect(parsed[0]).toEqual(['id', 'submitted_at', 'status', 'spam_reason', 'email', 'user_id', 'locale', 'name', 'email', 'tags', 'ok']);
    expect(parsed[1][7]).toBe('\'=HYPERLINK("http://evil")');
    expect(parsed[3][7]).toBe('\'+1 -2 @3');
    const unescape = (cell: string) => cell.replace(/^'(?=[=+\-@])/, '');
    const expected = [...all].reverse().map((r: { id: number; submitted_at: string; status: string; email: string | null; locale: string; answers: Record<string, unknown> }) => [
      String(r.id), r.submitted_at, r.status, '', r.email ?? '', '', r.locale,
      String(r.answers.name ?? ''), String(r.answers.email ?? ''), ((r.answers.tags as string[] | undefined) ?? []).join('; '), r.answers.ok === undefined ? '' : String(r.answers.ok),
    ]);
    expect(parsed.slice(1).map((row) => row.map(unescape))).toEqual(expected);

    expect((await h.request({ method: 'DELETE', url: `/api/admin/forms/${form.uid}/responses/${all[0].id}` })).statusCode).toBe(204);
    expect((await h.request({ method: 'GET', url: `/api/admin/forms/${form.uid}/responses/${all[0].id}` })).statusCode).toBe(404);
    expect((await ok(await h.request({ method: 'GET', url: `/api/admin/forms/${form.uid}/responses/${all[1].id}` }))).id).toBe(all[1].id);
  });

  it('erases every response of one address across the forms the member may manage', async () => {
    const first = await makeForm(h, { fields: FIELDS, steps: [], spam: quick });
    const second = await makeForm(h, { fields: FIELDS, steps: [], spam: quick, realm_uid: realm.uid });
    await fill(first.uid, { name: 'A', email: 'Gone@Example.com' });
    await fill(second.uid, { name: 'B', email: 'gone@example.com' });
    await fill(second.uid, { name: 'C', email: 'kept@example.com' });
    expect(await ok(await h.request({ method: 'POST', url: '/api/admin/forms/erasures', payload: { email: 'GONE@example.com' } }))).toEqual({ erased: 2 });
    expect((await responses(h, second.uid)).map((r: { email: string }) => r.email)).toEqual(['kept@example.com']);
    expect((await h.request({ method: 'POST', url: '/api/admin/forms/erasures', payload: {} })).statusCode).toBe(422);
  });
});

describe('permissions', () => {
  it('a weaker member gets 403; a realm\'s responses need realm.users.read there', async () => {
    const accountForm = await makeForm(h, { fields: FIELDS, steps: [] });
    const realmForm = await makeForm(h, { fields: FIELDS, steps: [], realm_uid: realm.uid });
    const reader = await memberToken(h, [{ key: 'account_user' }]);
    expect((await h.request({ method: 'GET', url: `/api/admin/forms/${accountForm.uid}`, token: reader })).statusCode).toBe(200);
    expect((await h.request({ method: 'PUT', url: `/api/admin/forms/${accountForm.uid}`, token: reader, payload: { name: 'x' } })).statusCode).toBe(403);
    expect((await h.request({ method: 'POST', url: '/api/admin/forms', token: reader, payload: { uid: 'nope', name: 'x', fields: FIELDS } })).statusCode).toBe(403);
    // account_user reads forms but holds no realm.users.read: a realm form's responses are personal data.
    expect((await h.request({ method: 'GET', url: `/api/admin/forms/${realmForm.uid}/responses`, token: reader })).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: `/api/admin/forms/${realmForm.uid}/responses.csv`, token: reader })).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: `/api/admin/forms/${accountForm.uid}/responses`, token: reader })).statusCode).toBe(200);

    const other = await makeRealm(h);
    const realmAdmin = await memberToken(h, [{ key: 'realm_admin', target: realm.uid }]);
    expect((await h.request({ method: 'GET', url: `/api/admin/forms/${realmForm.uid}/responses`, token: realmAdmin })).statusCode).toBe(200);
    expect((await h.request({ method: 'PUT', url: `/api/admin/forms/${realmForm.uid}`, token: realmAdmin, payload: { name: 'Renamed' } })).statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: `/api/admin/forms/${accountForm.uid}`, token: realmAdmin })).statusCode).toBe(404);
    const listed = await ok(await h.request({ method: 'GET', url: '/api/admin/forms?per_page=100', token: realmAdmin }));
    expect(listed.forms.map((f: { uid: string }) => f.uid)).toContain(realmForm.uid);
    expect(listed.forms.every((f: { realm_uid: string }) => f.realm_uid === realm.uid)).toBe(true);
    expect((await h.request({ method: 'POST', url: '/api/admin/forms', token: realmAdmin, payload: { uid: 'elsewhere', name: 'x', fields: FIELDS, realm_uid: other.uid } })).statusCode).toBe(403);
    const viewer = await memberToken(h, [{ key: 'realm_viewer', target: realm.uid }]);
    expect((await h.request({ method: 'DELETE', url: `/api/admin/forms/${realmForm.uid}`, token: viewer })).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: `/api/admin/forms/${realmForm.uid}/responses`, token: viewer })).statusCode).toBe(200);
  });

  it('refuses unsafe definitions: catastrophic patterns, conditions on later fields, unsafe redirects', async () => {
    const bad = await h.request({
      method: 'POST', url: '/api/admin/forms', payload: {
        uid: 'bad-form', name: 'Bad', redirect_url: 'javascript:alert(1)', fields: [
          { name: 'a', type: 'text', labels: { en: 'A' }, pattern: '(a+)+$' },
          { name: 'b', type: 'text', labels: { en: 'B' }, show_if: { field: 'c' } },
          { name: 'c', type: 'number', labels: {}, min_length: 3 },
        ],
      },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details.map((d: { field: string }) => d.field).sort()).toEqual(['fields.0.pattern', 'fields.1.show_if.field', 'fields.2.labels', 'fields.2.min_length', 'redirect_url']);
  });

  it('takes null for no realm and no redirect (the validator turns a null there into "")', async () => {
    const created = await h.request({
      method: 'POST', url: '/api/admin/forms',
      payload: { uid: 'null-form', name: 'Nulls', realm_uid: null, redirect_url: null, fields: [{ name: 'a', type: 'text', labels: { en: 'A' } }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ realm_uid: null, redirect_url: null });
    const withRedirect = await h.request({ method: 'PUT', url: '/api/admin/forms/null-form', payload: { redirect_url: '/thanks' } });
    expect(withRedirect.json().redirect_url).toBe('/thanks');
    const cleared = await h.request({ method: 'PUT', url: '/api/admin/forms/null-form', payload: { redirect_url: null } });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().redirect_url).toBeNull();
  });
});
