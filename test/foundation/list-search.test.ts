import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSpace, makeType, uniqueUid } from '../helpers/content.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';
import { makeCampaign } from '../messaging/fixtures.js';
import { LOAN, makeOrigination, startFor } from '../originations/fixtures.js';

/**
 * Every admin list a console shows is searched (`query`, case ignored, % and _ literal) and sorted
 * (`sort_by`, `order`) by the server. Each list gets three items made in the order Beta, Gamma, Alpha,
 * named after words that tell a literal % or _ from a wildcard.
 */
const WORDS = ['Beta a_m', 'Gamma amm', 'Alpha 100%'];

interface ListCase {
  /** The list's address once its scope (realm, space, user) exists, how to make one item labelled so, and how to read its label. */
  setup(h: Harness): Promise<{ url: string; make(label: string, word: string): Promise<void>; label?: (item: Record<string, unknown>) => string }>;
  root: string;
  label(item: Record<string, unknown>): string;
  /** A key that sorts by the label (or, for `created_at`, by creation). */
  sortBy: string;
}

const uid = () => randomBytes(4).toString('hex');
const created = (res: { statusCode: number; body: string }) => expect(res.statusCode, res.body).toBe(201);
const byName = (item: Record<string, unknown>) => item.name as string;

const CASES: Record<string, ListCase> = {
  realms: {
    root: 'realms', label: byName, sortBy: 'name',
    setup: async (h) => ({ url: '/api/admin/realms', make: async (name) => created(await h.request({ method: 'POST', url: '/api/admin/realms', payload: { uid: `r-${uid()}`, name } })) }),
  },
  'realm users': {
    root: 'users', label: (item) => item.first_name as string, sortBy: 'first_name',
    setup: async (h) => {
      const realm = await makeRealm(h);
      return { url: `/api/admin/customers/${realm.uid}/users`, make: async (name) => { await makeRealmUser(h, realm.uid, { first_name: name }); } };
    },
  },
  'team members': {
    root: 'team_members', label: (item) => item.first_name as string, sortBy: 'first_name',
    setup: async (h) => ({
      url: '/api/admin/team_members',
      make: async (name) => created(await h.request({
        method: 'POST', url: '/api/admin/team_members', payload: { email: `m-${uid()}@example.com`, password: 'a sturdy password', first_name: name, last_name: 'Tester' },
      })),
    }),
  },
  roles: {
    root: 'roles', label: byName, sortBy: 'name',
    setup: async (h) => ({
      url: '/api/admin/roles',
      make: async (name) => created(await h.request({ method: 'POST', url: '/api/admin/roles', payload: { key: `r_${uid()}`, name, context: 'realm', permissions: [] } })),
    }),
  },
  'API applications': {
    root: 'applications', label: byName, sortBy: 'name',
    setup: async (h) => ({ url: '/api/admin/api_access/applications', make: async (name) => created(await h.request({ method: 'POST', url: '/api/admin/api_access/applications', payload: { name } })) }),
  },
  'OAuth clients': {
    root: 'oauth_clients', label: byName, sortBy: 'name',
    setup: async (h) => {
      const url = `/api/admin/customers/${(await makeRealm(h)).uid}/oauth_clients`;
      return { url, make: async (name) => created(await h.request({ method: 'POST', url, payload: { name, redirect_uris: ['https://app.example/cb'] } })) };
    },
  },
  'custom fields': {
    root: 'custom_fields', label: byName, sortBy: 'name',
    setup: async (h) => {
      const url = `/api/admin/customers/${(await makeRealm(h)).uid}/custom_fields`;
      return { url, make: async (name) => created(await h.request({ method: 'POST', url, payload: { key: `f_${uid()}`, name, type: 'text' } })) };
    },
  },
  originations: {
    root: 'originations', label: byName, sortBy: 'name',
    setup: async (h) => {
      const realm = await makeRealm(h);
      return { url: `/api/admin/customers/${realm.uid}/originations`, make: async (name) => { await makeOrigination(h, realm.uid, { ...LOAN, name }); } };
    },
  },
  'reviewer groups': {
    root: 'groups', label: byName, sortBy: 'name',
    setup: async (h) => {
      const url = `/api/admin/customers/${(await makeRealm(h)).uid}/groups`;
      return { url, make: async (name) => created(await h.request({ method: 'POST', url, payload: { name } })) };
    },
  },
  submissions: {
    // Searched by the origination's name, which a submission does not show; sorted by when they were made.
    root: 'submissions', label: () => '', sortBy: 'created_at',
    setup: async (h) => {
      const realm = await makeRealm(h);
      const user = await makeRealmUser(h, realm.uid);
      const names = new Map<number, string>();
      return {
        url: `/api/admin/customers/${realm.uid}/users/${user.id}/submissions`,
        make: async (name) => {
          const origination = await makeOrigination(h, realm.uid, { ...LOAN, name });
          names.set((await startFor(h, realm.uid, origination.id, user.id)).id, name);
          h.clock.advanceMinutes(1);
        },
        label: (item) => names.get(item.id as number)!,
      };
    },
  },
  segments: {
    root: 'segments', label: byName, sortBy: 'name',
    setup: async (h) => {
      const realm = await makeRealm(h);
      return {
        url: `/api/admin/segments?realm_uid=${realm.uid}`,
        make: async (name) => created(await h.request({
          method: 'POST', url: '/api/admin/segments', payload: { name, realm_uid: realm.uid, filters: { attribute: 'email', operator: 'is_set' } },
        })),
      };
    },
  },
  campaigns: {
    root: 'campaigns', label: byName, sortBy: 'name',
    setup: async (h) => {
      const realm = await makeRealm(h);
      return { url: '/api/admin/messaging/campaigns', make: async (name) => { await makeCampaign(h, realm.uid, { name }); } };
    },
  },
  webhooks: {
    // Searched in the description (or URL); sorted by URL, whose host is the word.
    root: 'webhooks', label: (item) => item.description as string, sortBy: 'url',
    setup: async (h) => ({
      url: '/api/admin/webhooks',
      make: async (description, word) => created(await h.request({
        method: 'POST', url: '/api/admin/webhooks',
        payload: { url: `https://${word.split(' ')[0].toLowerCase()}-${uid()}.example.com/hook`, description, event_types: ['realm_user.updated'] },
      })),
    }),
  },
  'content spaces': {
    root: 'spaces', label: byName, sortBy: 'name',
    setup: async (h) => ({ url: '/api/admin/content/spaces', make: async (name) => { await makeSpace(h, { name }); } }),
  },
  'content types': {
    root: 'types', label: byName, sortBy: 'name',
    setup: async (h) => {
      const space = await makeSpace(h);
      return { url: `/api/admin/content/spaces/${space.uid}/types`, make: async (name) => { await makeType(h, space.uid, { name }); } };
    },
  },
  'content entries': {
    root: 'entries', label: (item) => (item.meta as { name: string }).name, sortBy: 'name',
    setup: async (h) => {
      const space = await makeSpace(h);
      const url = `/api/admin/content/spaces/${space.uid}/types/${(await makeType(h, space.uid)).uid}/entries`;
      return { url, make: async (name) => created(await h.request({ method: 'POST', url, payload: { name, slug: uniqueUid('entry'), locale: 'en', fields: {} } })) };
    },
  },
};

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h?.close(); });

describe.each(Object.entries(CASES))('the %s list', (_, list) => {
  const marker = `mk${uid()}`;
  const labels = WORDS.map((word) => `${word} ${marker}`);
  let url: string;
  let label = list.label;
  const labelsOf = async (params: Record<string, string>) => {
    const separator = url.includes('?') ? '&' : '?';
    const res = await h.request({ method: 'GET', url: `${url}${separator}${new URLSearchParams({ per_page: '100', ...params })}` });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.meta.total_entries).toBe(body[list.root].length);
    return (body[list.root] as Record<string, unknown>[]).map(label);
  };

  beforeAll(async () => {
    const scope = await list.setup(h);
    url = scope.url;
    label = scope.label ?? list.label;
    for (const [i, text] of labels.entries()) await scope.make(text, WORDS[i]);
  });

  it('finds the text anywhere, ignoring case, and nothing that lacks it', async () => {
    expect(await labelsOf({ query: `alpha 100% ${marker}`.toUpperCase() })).toEqual([labels[2]]);
    expect(await labelsOf({ query: `  ${marker}  ` })).toHaveLength(3);
    expect(await labelsOf({ query: `nothing ${marker}` })).toEqual([]);
  });

  it('takes % and _ literally', async () => {
    expect(await labelsOf({ query: `0% ${marker}` })).toEqual([labels[2]]);
    expect(await labelsOf({ query: `a_m ${marker}` })).toEqual([labels[0]]);
  });

  it('sorts both ways, and an unknown sort key falls back to the default order', async () => {
    const ascending = list.sortBy === 'created_at' ? labels : [...labels].sort();
    expect(await labelsOf({ query: marker, sort_by: list.sortBy, order: 'asc' })).toEqual(ascending);
    expect(await labelsOf({ query: marker, sort_by: list.sortBy, order: 'desc' })).toEqual([...ascending].reverse());
    expect(await labelsOf({ query: marker, sort_by: '__proto__' })).toHaveLength(3);
  });

  it('refuses a NUL in the query with 400', async () => {
    const separator = url.includes('?') ? '&' : '?';
    const res = await h.request({ method: 'GET', url: `${url}${separator}query=a%00b` });
    expect(res.statusCode).toBe(400);
  });
});
