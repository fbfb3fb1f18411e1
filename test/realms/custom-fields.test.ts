import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, memberToken } from '../helpers/realms.js';

describe('custom fields admin API', () => {
  let h: Harness;
  let realm: { uid: string };
  const url = () => `/api/admin/customers/${realm.uid}/custom_fields`;

  beforeAll(async () => {
    h = await startHarness();
    realm = await makeRealm(h);
  });
  afterAll(async () => { await h?.close(); });

  it('creates fields of every type with their defaults', async () => {
    const res = await h.request({ method: 'POST', url: url(), payload: { key: 'nickname', name: 'Nickname', type: 'text' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      id: expect.any(Number), key: 'nickname', name: 'Nickname', type: 'text', options: [],
      required: false, unique: false, visible: true, editable: false,
    });
    for (const [key, type, extra] of [
      ['bio', 'paragraph', {}], ['age', 'number', { required: true }], ['born', 'date', {}], ['newsletter', 'checkbox', { editable: true }],
      ['plan', 'dropdown', { options: ['basic', 'gold'] }], ['channel', 'choice', { options: ['email', 'sms'], visible: false }],
    ] as const) {
      const created = await h.request({ method: 'POST', url: url(), payload: { key, name: key, type, ...extra } });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json()).toMatchObject({ key, type, ...extra });
    }
  });

  it('lists fields in creation order with meta', async () => {
    const res = await h.request({ method: 'GET', url: `${url()}?per_page=100` });
    expect(res.statusCode).toBe(200);
    expect(res.json().custom_fields.map((f: { key: string }) => f.key)).toEqual(['nickname', 'bio', 'age', 'born', 'newsletter', 'plan', 'channel']);
    expect(res.json().meta).toEqual({ total_entries: 7, per_page: 100, current_page: 1, total_pages: 1 });
  });

  it('refuses bad definitions with 422 naming the attribute', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x', type: 'text' }, 'key'],
      [{ key: '1abc', name: 'x', type: 'text' }, 'key'],
      [{ key: 'has-dash', name: 'x', type: 'text' }, 'key'],
      [{ key: 'nickname', name: 'again', type: 'text' }, 'key'],
      [{ key: 'k1', type: 'text' }, 'name'],
      [{ key: 'k1', name: 'x' }, 'type'],
      [{ key: 'k1', name: 'x', type: 'colour' }, 'type'],
      [{ key: 'k1', name: 'x', type: 'dropdown' }, 'options'],
      [{ key: 'k1', name: 'x', type: 'choice', options: [] }, 'options'],
      [{ key: 'k1', name: 'x', type: 'dropdown', options: ['a', 'a'] }, 'options'],
      [{ key: 'k1', name: 'x', type: 'text', options: ['a'] }, 'options'],
      [{ key: 'k1', name: 'x', type: 'text', searchable: true }, 'searchable'],
    ];
    for (const [payload, field] of cases) {
      const res = await h.request({ method: 'POST', url: url(), payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().details.map((d: { field: string }) => d.field), JSON.stringify(payload)).toContain(field);
    }
  });

  it('changes only what PUT names and refuses a taken key', async () => {
    const list = (await h.request({ method: 'GET', url: `${url()}?per_page=100` })).json().custom_fields;
    const plan = list.find((f: { key: string }) => f.key === 'plan');
    const res = await h.request({ method: 'PUT', url: `${url()}/${plan.id}`, payload: { options: ['basic', 'gold', 'platinum'], editable: true } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ key: 'plan', name: 'plan', type: 'dropdown', options: ['basic', 'gold', 'platinum'], editable: true, visible: true });
    const taken = await h.request({ method: 'PUT', url: `${url()}/${plan.id}`, payload: { key: 'nickname' } });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().details).toEqual([{ field: 'key', messages: ['has already been taken'] }]);
    const toText = await h.request({ method: 'PUT', url: `${url()}/${plan.id}`, payload: { type: 'text' } });
    expect(toText.statusCode, toText.body).toBe(200);
    expect(toText.json()).toMatchObject({ type: 'text', options: [] });
  });

  it('allows at most 20 fields per realm', async () => {
    const other = await makeRealm(h);
    for (let i = 0; i < 20; i++) {
      const res = await h.request({ method: 'POST', url: `/api/admin/customers/${other.uid}/custom_fields`, payload: { key: `f${i}`, name: `F${i}`, type: 'text' } });
      expect(res.statusCode, res.body).toBe(201);
    }
    const over = await h.request({ method: 'POST', url: `/api/admin/customers/${other.uid}/custom_fields`, payload: { key: 'f20', name: 'F20', type: 'text' } });
    expect(over.statusCode).toBe(422);
    expect(over.json().errors).toEqual(['A realm has at most 20 custom fields']);
    // Another realm has its own twenty.
    expect((await h.request({ method: 'POST', url: url(), payload: { key: 'f20', name: 'F20', type: 'text' } })).statusCode).toBe(201);
  });

  it('deletes a field', async () => {
    const created = (await h.request({ method: 'POST', url: url(), payload: { key: 'temp', name: 'Temp', type: 'number' } })).json();
    expect((await h.request({ method: 'DELETE', url: `${url()}/${created.id}` })).statusCode).toBe(204);
    expect((await h.request({ method: 'DELETE', url: `${url()}/${created.id}` })).statusCode).toBe(404);
  });

  it('answers 404 for an unknown realm or a field of another realm', async () => {
    expect((await h.request({ method: 'GET', url: '/api/admin/customers/nope/custom_fields' })).statusCode).toBe(404);
    expect((await h.request({ method: 'POST', url: '/api/admin/customers/nope/custom_fields', payload: { key: 'a', name: 'a', type: 'text' } })).statusCode).toBe(404);
    const other = await makeRealm(h);
    const field = (await h.request({ method: 'GET', url: url() })).json().custom_fields[0];
    const res = await h.request({ method: 'PUT', url: `/api/admin/customers/${other.uid}/custom_fields/${field.id}`, payload: { name: 'x' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ errors: ['Custom field not found'], code: 'ATR_NOT_FOUND' });
    expect((await h.request({ method: 'DELETE', url: `/api/admin/customers/${other.uid}/custom_fields/${field.id}` })).statusCode).toBe(404);
  });

  it('answers 401 without a credential and 403 to a role of another realm', async () => {
    const other = await makeRealm(h);
    const foreign = await memberToken(h, [{ key: 'realm_admin', target: other.uid }]);
    const viewer = await memberToken(h, [{ key: 'realm_viewer', target: realm.uid }]);
    const field = (await h.request({ method: 'GET', url: url() })).json().custom_fields[0];
    const routes = [
      ['GET', url()], ['POST', url()], ['PUT', `${url()}/${field.id}`], ['DELETE', `${url()}/${field.id}`],
    ] as const;
    for (const [method, path] of routes) {
      const payload = method === 'POST' || method === 'PUT' ? { payload: { key: 'zz', name: 'zz', type: 'text' } } : {};
      expect((await h.request({ method, url: path, token: null, ...payload })).statusCode, `${method} ${path}`).toBe(401);
      expect((await h.request({ method, url: path, token: foreign, ...payload })).statusCode, `${method} ${path}`).toBe(403);
    }
    expect((await h.request({ method: 'GET', url: url(), token: viewer })).statusCode).toBe(200);
    expect((await h.request({ method: 'POST', url: url(), token: viewer, payload: { key: 'zz', name: 'zz', type: 'text' } })).statusCode).toBe(403);
  });
});
