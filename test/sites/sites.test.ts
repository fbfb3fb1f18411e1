import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainTasks } from '../../src/queue/tasks.js';
import { TASK_QUEUES } from '../../src/server.js';
import { makeSpace, makeType, uniqueUid } from '../helpers/content.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken, REALM_USER_PASSWORD, signInAtLoginPage } from '../helpers/realms.js';

let h: Harness;
let realm: { uid: string };
let space: { uid: string };
let type: { uid: string };

const LAYOUT = `<!doctype html><html lang="{{ locale }}"><head><title>{{ page.title }} · {{ site.name }}</title>
<link rel="stylesheet" href="{{ 'main.css' | asset_url }}"></head>
<body>{% zone "header" %}<main>{% zone "main" %}</main>{% render "footer", site: site %}</body></html>`;
const MEMBER_LAYOUT = '<html><body><p>Hello {{ user.first_name }}</p>{% zone "main" %}</body></html>';

async function ok(res: { statusCode: number; body: string; json(): any }, status = 200) {
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
}

const admin = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token?: string) =>
  h.request({ method, url: `/api/admin${url}`, payload: payload as object, ...(token ? { token } : {}) });

/** A site with a realm, two layouts, a snippet, a file, pages in two locales with every block type, and a menu. */
async function buildSite(extra: Record<string, unknown> = {}) {
  const uid = uniqueUid('site');
  const site = await ok(await admin('POST', '/sites', { uid, name: 'Shop', default_locale: 'en', locales: ['en', 'es'], realm_uid: realm.uid, space_uids: [space.uid], ...extra }), 201);
  await ok(await admin('POST', `/sites/${uid}/layouts`, { name: 'main', source: LAYOUT }), 201);
  await ok(await admin('POST', `/sites/${uid}/layouts`, { name: 'members', source: MEMBER_LAYOUT }), 201);
  await ok(await admin('POST', `/sites/${uid}/snippets`, { name: 'footer', source: '<footer>© {{ site.name }}</footer>' }), 201);
  await ok(await admin('POST', `/sites/${uid}/snippets`, { name: 'card', source: '{% for e in entries %}<div class="card">{{ e.meta.name }}</div>{% endfor %}' }), 201);
  await ok(await admin('POST', `/sites/${uid}/files`, { name: 'main.css', body: 'body { color: #222 }' }), 201);
  const home = await ok(await admin('POST', `/sites/${uid}/layout_pages`, {
    layout: 'main', locales: { en: { title: 'Home', slug: '' }, es: { title: 'Inicio', slug: '' } },
    blocks: [{ zone: 'main', type: 'rich_text', markdown: { en: '# Welcome\n\n**bold**\n\n<script>alert(1)</script>', es: '# Bienvenido' } }],
  }), 201);
  const about = await ok(await admin('POST', `/sites/${uid}/layout_pages`, {
    layout: 'main', locales: { en: { title: 'About us', slug: 'about' }, es: { title: 'Nosotros', slug: 'nosotros' } },
    blocks: [
      { zone: 'main', type: 'content_list', space_uid: space.uid, type_uid: type.uid, limit: 5, snippet: 'card' },
      { zone: 'main', type: 'liquid', source: '<p id="liquid">{{ page.title | upcase }}</p>' },
    ],
  }), 201);
  const team = await ok(await admin('POST', `/sites/${uid}/layout_pages`, {
    parent_id: about.id, layout: 'main', locales: { en: { title: 'Team', slug: 'team' } },
    blocks: [{ zone: 'main', type: 'content_entry', space_uid: space.uid, type_uid: type.uid, entry_uuid: '00000000-0000-4000-8000-000000000000' }],
  }), 201);
  const members = await ok(await admin('POST', `/sites/${uid}/layout_pages`, {
    layout: 'members', visibility: 'realm_users', locales: { en: { title: 'Members', slug: 'members' } }, blocks: [],
  }), 201);
  await ok(await admin('POST', `/sites/${uid}/menus`, {
    uid: 'main', name: 'Main', items: [
      { labels: { en: 'About', es: 'Acerca' }, page_id: about.id, children: [{ labels: { en: 'Team' }, page_id: team.id }] },
      { labels: { en: 'Blog' }, url: 'https://blog.example.com/' },
    ],
  }), 201);
  await ok(await admin('PUT', `/sites/${uid}/layout_pages/${home.id}`, { blocks: [
    { zone: 'header', type: 'menu', menu_uid: 'main' },
    { zone: 'main', type: 'rich_text', markdown: { en: '# Welcome\n\n**bold**\n\n<script>alert(1)</script>', es: '# Bienvenido' } },
  ] }));
  return { uid, site, home, about, team, members };
}

beforeAll(async () => {
  h = await startHarness({ OUTBOUND_ALLOW_PRIVATE: '1' });
  realm = await makeRealm(h);
  space = await makeSpace(h);
  type = await makeType(h, space.uid);
  for (const name of ['First post', 'Second post']) {
    const entry = await ok(await admin('POST', `/content/spaces/${space.uid}/types/${type.uid}/entries`, { name, locale: 'en', fields: {} }), 201);
    await ok(await admin('POST', `/content/spaces/${space.uid}/types/${type.uid}/entries/${entry.meta.uuid}/publish`));
  }
});
afterAll(async () => { await h?.close(); });

describe('sites', () => {
  it('serves nothing before a publish, then the published pages in both locales with their blocks', async () => {
    const { uid, about } = await buildSite();
    expect((await h.request({ method: 'GET', url: `/sites/${uid}/` })).statusCode).toBe(404);
    const version = await ok(await admin('POST', `/sites/${uid}/publish`, { note: 'First' }), 201);
    expect(version).toMatchObject({ number: 1, note: 'First', current: true });
    expect(version.changes).toEqual(expect.arrayContaining([{ kind: 'layout', key: 'main', change: 'added' }, { kind: 'menu', key: 'main', change: 'added' }]));

    const home = await h.request({ method: 'GET', url: `/sites/${uid}/` });
    expect(home.statusCode).toBe(200);
    expect(home.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(home.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(home.body).toContain('<title>Home · Shop</title>');
    expect(home.body).toContain('<h1>Welcome</h1>');
    expect(home.body).toContain('<strong>bold</strong>');
    expect(home.body).not.toContain('<script>');
    expect(home.body).toContain(`<a href="/sites/${uid}/about">About</a>`);
    expect(home.body).toContain(`<a href="/sites/${uid}/about/team">Team</a>`);
    expect(home.body).toContain('<footer>© Shop</footer>');
    const css = /href="([^"]+main\.[0-9a-f]{16}\.css)"/.exec(home.body)![1];
    const file = await h.request({ method: 'GET', url: css });
    expect(file.statusCode).toBe(200);
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(file.body).toBe('body { color: #222 }');
    const again = await h.request({ method: 'GET', url: `/sites/${uid}/`, headers: { 'if-none-match': String(home.headers.etag) } });
    expect(again.statusCode).toBe(304);

    const es = await h.request({ method: 'GET', url: `/sites/${uid}/es/nosotros` });
    expect(es.statusCode).toBe(200);
    expect(es.body).toContain('<html lang="es">');
    expect(es.body).toContain('<p id="liquid">NOSOTROS</p>');
    expect(es.body).toContain('<div class="card">First post</div>');
    expect(es.body).toContain('<div class="card">Second post</div>');
    const esHome = await h.request({ method: 'GET', url: `/sites/${uid}/es/` });
    expect(esHome.body).toContain('<h1>Bienvenido</h1>');
    expect(esHome.body).toContain(`<a href="/sites/${uid}/es/nosotros">Acerca</a>`);
    // A page without words in Spanish uses the English ones under /es.
    expect((await h.request({ method: 'GET', url: `/sites/${uid}/es/nosotros/team` })).statusCode).toBe(200);

    const sitemap = await h.request({ method: 'GET', url: `/sites/${uid}/sitemap.xml` });
    expect(sitemap.body).toContain(`/sites/${uid}/about</loc>`);
    expect(sitemap.body).toContain(`/sites/${uid}/es/nosotros</loc>`);
    expect(sitemap.body).not.toContain('/members');
    expect((await h.request({ method: 'GET', url: `/sites/${uid}/robots.txt` })).body).toContain(`Sitemap: http://`);
    expect((await h.request({ method: 'GET', url: `/sites/${uid}/nowhere` })).statusCode).toBe(404);

    // A published slug that changes keeps a 301 from the old path.
    await ok(await admin('PUT', `/sites/${uid}/layout_pages/${about.id}`, { locales: { en: { slug: 'company' } } }));
    expect((await h.request({ method: 'GET', url: `/sites/${uid}/company` })).statusCode).toBe(404);
    await ok(await admin('POST', `/sites/${uid}/publish`, {}), 201);
    expect((await h.request({ method: 'GET', url: `/sites/${uid}/company` })).statusCode).toBe(200);
    const moved = await h.request({ method: 'GET', url: `/sites/${uid}/about/team` });
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe(`/sites/${uid}/company/team`);
    expect((await admin('POST', `/sites/${uid}/publish`, {})).statusCode).toBe(409);
  });

  it('refuses bad templates, clashing paths, reserved slugs and trees past their limits', async () => {
    const { uid, about } = await buildSite();
    const bad = await admin('POST', `/sites/${uid}/layouts`, { name: 'broken', source: '<p>\n{% if x %}\n  {% fi %}' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details[0]).toEqual({ field: 'source', messages: [expect.stringMatching(/^is not valid Liquid: line 3, column 3: /)] });
    const clash = await admin('POST', `/sites/${uid}/layout_pages`, { layout: 'main', locales: { en: { title: 'Again', slug: 'about' } } });
    expect(clash.statusCode).toBe(409);
    expect(clash.headers['atrium-error-code']).toBe('ATR_PATH_TAKEN');
    for (const slug of ['sitemap.xml', 'es', '_assets']) {
      expect((await admin('POST', `/sites/${uid}/layout_pages`, { layout: 'main', locales: { en: { title: 'X', slug } } })).statusCode).toBe(422);
    }
    expect((await admin('PUT', `/sites/${uid}/layout_pages/${about.id}`, { parent_id: about.id })).statusCode).toBe(422);
    let parent = about.id;
    for (let depth = 2; depth <= 10; depth++) {
      parent = (await ok(await admin('POST', `/sites/${uid}/layout_pages`, { parent_id: parent, layout: 'main', locales: { en: { title: `L${depth}`, slug: `l${depth}` } } }), 201)).id;
    }
    const deep = await admin('POST', `/sites/${uid}/layout_pages`, { parent_id: parent, layout: 'main', locales: { en: { title: 'Too deep', slug: 'deep' } } });
    expect(deep.statusCode).toBe(422);
    expect((await admin('DELETE', `/sites/${uid}/layout_pages/${about.id}`)).statusCode).toBe(409);
    const menu = await admin('PUT', `/sites/${uid}/menus/main`, { items: [{ labels: { en: 'X' }, url: 'javascript:alert(1)' }] });
    expect(menu.statusCode).toBe(422);
    expect((await admin('POST', '/roles', {})).statusCode).not.toBe(500);
  });

  it('lets a Developer save drafts and ask for review but not publish; a Reviewer approves and publishes; rollback restores', async () => {
    const { uid, home } = await buildSite({ require_review: true });
    const developer = await memberToken(h, [{ key: 'site_developer', target: uid }]);
    const reviewer = await memberToken(h, [{ key: 'site_reviewer', target: uid }]);
    expect((await admin('POST', `/sites/${uid}/publish`, {}, developer)).statusCode).toBe(403);
    const unreviewed = await admin('POST', `/sites/${uid}/publish`, {}, reviewer);
    expect(unreviewed.statusCode).toBe(409);
    expect(unreviewed.headers['atrium-error-code']).toBe('ATR_REVIEW_REQUIRED');
    const review = await ok(await admin('POST', `/sites/${uid}/review_requests`, { note: 'Ready' }, developer), 201);
    expect((await admin('POST', `/sites/${uid}/review_requests/${review.id}/approve`, {}, developer)).statusCode).toBe(403);
    await ok(await admin('POST', `/sites/${uid}/review_requests/${review.id}/approve`, { comment: 'Fine' }, reviewer));
    const v1 = await ok(await admin('POST', `/sites/${uid}/publish`, { review_request_id: review.id }, reviewer), 201);
    expect(v1.review_request_id).toBe(review.id);
    expect((await ok(await admin('GET', `/sites/${uid}/review_requests/${review.id}`))).status).toBe('published');

    // A change after approval needs a new review.
    await ok(await admin('PUT', `/sites/${uid}/layout_pages/${home.id}`, { locales: { en: { title: 'New home' } } }, developer));
    const second = await ok(await admin('POST', `/sites/${uid}/review_requests`, {}, developer), 201);
    await ok(await admin('POST', `/sites/${uid}/review_requests/${second.id}/approve`, {}, reviewer));
    await ok(await admin('PUT', `/sites/${uid}/layout_pages/${home.id}`, { locales: { en: { title: 'Newer home' } } }, developer));
    expect((await admin('POST', `/sites/${uid}/publish`, { review_request_id: second.id }, reviewer)).statusCode).toBe(409);
    const third = await ok(await admin('POST', `/sites/${uid}/review_requests`, {}, developer), 201);
    await ok(await admin('POST', `/sites/${uid}/review_requests/${third.id}/approve`, {}, reviewer));
    await ok(await admin('POST', `/sites/${uid}/publish`, { review_request_id: third.id }, reviewer), 201);
    expect((await h.request({ method: 'GET', url: `/sites/${uid}/` })).body).toContain('<title>Newer home · Shop</title>');

    const diff = await ok(await admin('GET', `/sites/${uid}/versions/diff?from=1&to=2`));
    expect(diff.changes).toEqual([expect.objectContaining({ kind: 'page', key: String(home.id), change: 'changed' })]);
    expect((await admin('POST', `/sites/${uid}/versions/1/restore`, undefined, developer)).statusCode).toBe(403);
    const restored = await ok(await admin('POST', `/sites/${uid}/versions/1/restore`, undefined, reviewer), 201);
    expect(restored).toMatchObject({ number: 3, restored_from: 1, current: true });
    expect((await h.request({ method: 'GET', url: `/sites/${uid}/` })).body).toContain('<title>Home · Shop</title>');
    const versions = await ok(await admin('GET', `/sites/${uid}/versions`));
    expect(versions.versions.map((v: { number: number }) => v.number)).toEqual([3, 2, 1]);
    const audit = await ok(await admin('GET', '/logs?per_page=100'));
    expect(JSON.stringify(audit)).toContain('/publish');
  });

  it('sends a signed-out visitor of a private page to the realm login and back; never caches it; signs out calling the logout URLs', async () => {
    const received: string[] = [];
    const listener = http.createServer((req, res) => { received.push(`${req.method} ${req.url}`); res.end('ok'); });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    await ok(await admin('POST', '/api_access/applications', { name: 'Shop app', logout_url: `http://127.0.0.1:${(listener.address() as AddressInfo).port}/bye` }), 201);
    const { uid } = await buildSite();
    await ok(await admin('POST', `/sites/${uid}/publish`, {}), 201);
    const away = await h.request({ method: 'GET', url: `/sites/${uid}/members` });
    expect(away.statusCode).toBe(303);
    expect(away.headers.location).toBe(`/realms/${realm.uid}/login?redirect_uri=${encodeURIComponent(`/sites/${uid}/members`)}`);
    const user = await makeRealmUser(h, realm.uid, { first_name: 'Lucía' });
    const cookie = await signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD);
    const page = await h.request({ method: 'GET', url: `/sites/${uid}/members`, headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Hello Lucía');
    expect(page.headers['cache-control']).toBe('private, no-store');

    const form = await h.request({ method: 'GET', url: `/sites/${uid}/logout`, headers: { cookie } });
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(form.body)![1];
    const csrfCookie = form.cookies.find((c) => c.name === 'atrium_csrf')!;
    const out = await h.request({
      method: 'POST', url: `/sites/${uid}/logout`, headers: { cookie: `${cookie}; atrium_csrf=${csrfCookie.value}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `csrf_token=${csrf}`,
    });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe(`/sites/${uid}/`);
    await expect.poll(() => received).toContain('GET /bye');
    expect((await h.request({ method: 'GET', url: `/sites/${uid}/members`, headers: { cookie } })).statusCode).toBe(303);
    await new Promise((resolve) => listener.close(resolve));
  });

  it('serves a site on its custom domain, unique across sites and realms', async () => {
    const domain = `${uniqueUid('www')}.example.com`;
    const { uid } = await buildSite({ custom_domain: domain });
    await ok(await admin('POST', `/sites/${uid}/publish`, {}), 201);
    const page = await h.request({ method: 'GET', url: '/about', headers: { host: domain } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>About us · Shop</title>');
    const home = await h.request({ method: 'GET', url: '/', headers: { host: domain } });
    expect(home.body).toContain('<a href="/about/team">Team</a>');
    expect((await h.request({ method: 'GET', url: '/sitemap.xml', headers: { host: domain } })).body).toContain(`<loc>http://${domain}/about</loc>`);
    const taken = await admin('POST', '/sites', { uid: uniqueUid('site'), name: 'Copy', default_locale: 'en', custom_domain: domain });
    expect(taken.statusCode).toBe(422);
    expect((await admin('PUT', `/realms/${realm.uid}`, { custom_domain: domain })).statusCode).toBe(422);
    expect((await admin('POST', '/sites', { uid: uniqueUid('site'), name: 'Loop', default_locale: 'en', custom_domain: 'localhost' })).statusCode).toBe(422);
    // A new site names its default locale (the fuzzer found this answered 500).
    const unnamed = await admin('POST', '/sites', { uid: uniqueUid('site'), name: 'No locale', realm_uid: realm.uid });
    expect(unnamed.statusCode).toBe(422);
    expect(unnamed.json().details).toEqual([{ field: 'default_locale', messages: ["can't be blank"] }]);
    // The site's OAuth client of its realm (for sign-in on the domain) comes and goes with the site.
    const clients = async () => (await ok(await admin('GET', `/customers/${realm.uid}/oauth_clients?per_page=100`))).oauth_clients
      .filter((c: { name: string }) => c.name === `Site ${uid}`);
    expect(await clients()).toEqual([expect.objectContaining({ redirect_uris: [`http://${domain}/_auth/callback`] })]);
    expect((await admin('DELETE', `/sites/${uid}`)).statusCode).toBe(204);
    expect(await clients()).toEqual([]);
    expect((await h.request({ method: 'GET', url: '/about', headers: { host: domain } })).statusCode).toBe(404);
  });

  it('signs a user in on the site\'s own domain as an OAuth client of its realm (PKCE), with a session cookie of its own there', async () => {
    const domain = `${uniqueUid('members')}.example.com`;
    const { uid } = await buildSite({ custom_domain: domain });
    await ok(await admin('POST', `/sites/${uid}/publish`, {}), 201);
    const away = await h.request({ method: 'GET', url: '/members', headers: { host: domain } });
    expect(away.statusCode).toBe(303);
    const authorize = new URL(String(away.headers.location));
    expect(authorize.pathname).toBe(`/realms/${realm.uid}/oauth/authorize`);
    expect(authorize.searchParams.get('redirect_uri')).toBe(`http://${domain}/_auth/callback`);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    const flow = away.cookies.find((c) => c.name === 'atrium_site_auth')!;
    expect(flow.httpOnly).toBe(true);

    const user = await makeRealmUser(h, realm.uid, { first_name: 'Inés' });
    const realmCookie = await signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD);
    const granted = await h.request({ method: 'GET', url: `${authorize.pathname}${authorize.search}`, headers: { cookie: realmCookie } });
    expect([302, 303]).toContain(granted.statusCode);
    const callback = new URL(String(granted.headers.location));
    expect(callback.host).toBe(domain);
    // A callback without this browser's flow cookie is refused.
    expect((await h.request({ method: 'GET', url: `${callback.pathname}${callback.search}`, headers: { host: domain } })).statusCode).toBe(400);
    const back = await h.request({ method: 'GET', url: `${callback.pathname}${callback.search}`, headers: { host: domain, cookie: `atrium_site_auth=${flow.value}` } });
    expect(back.statusCode, back.body).toBe(303);
    expect(back.headers.location).toBe('/members');
    const session = back.cookies.find((c) => c.name === `atrium_site_${uid}`)!;
    const siteCookie = `atrium_site_${uid}=${session.value}`;
    const page = await h.request({ method: 'GET', url: '/members', headers: { host: domain, cookie: siteCookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Hello Inés');

    const form = await h.request({ method: 'GET', url: '/logout', headers: { host: domain, cookie: siteCookie } });
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(form.body)![1];
    const out = await h.request({
      method: 'POST', url: `/sites/${uid}/logout`, payload: `csrf_token=${csrf}`,
      headers: { host: domain, cookie: `${siteCookie}; atrium_csrf=${form.cookies.find((c) => c.name === 'atrium_csrf')!.value}`, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/');
    expect((await h.request({ method: 'GET', url: '/members', headers: { host: domain, cookie: siteCookie } })).statusCode).toBe(303);
  });

  it('publishes at a scheduled moment through the task queue, and can cancel a schedule', async () => {
    const { uid } = await buildSite();
    const at = new Date(h.clock.now().getTime() + 3_600_000).toISOString();
    const scheduled = await ok(await admin('POST', `/sites/${uid}/publish`, { at, note: 'Launch' }), 202);
    expect(scheduled.scheduled).toMatchObject({ at, note: 'Launch' });
    const other = await ok(await admin('POST', `/sites/${uid}/publish`, { at: new Date(h.clock.now().getTime() + 7_200_000).toISOString() }), 202);
    expect((await admin('DELETE', `/sites/${uid}/scheduled_publishes/${other.scheduled.id}`)).statusCode).toBe(204);
    expect((await admin('POST', `/sites/${uid}/publish`, { at: new Date(h.clock.now().getTime() - 1000).toISOString() })).statusCode).toBe(422);
    await drainTasks(h.ctx, TASK_QUEUES);
    expect((await h.request({ method: 'GET', url: `/sites/${uid}/` })).statusCode).toBe(404);
    h.clock.advanceMinutes(61);
    await drainTasks(h.ctx, TASK_QUEUES);
    expect((await h.request({ method: 'GET', url: `/sites/${uid}/` })).statusCode).toBe(200);
    const versions = await ok(await admin('GET', `/sites/${uid}/versions`));
    expect(versions.versions).toEqual([expect.objectContaining({ number: 1, note: 'Launch' })]);
    expect((await ok(await admin('GET', `/sites/${uid}/scheduled_publishes`))).scheduled_publishes).toEqual([]);
    h.clock.advanceMinutes(120);
    await drainTasks(h.ctx, TASK_QUEUES);
    expect((await ok(await admin('GET', `/sites/${uid}/versions`))).versions).toHaveLength(1);
  });

  it('stops runaway Liquid at its limits: a block becomes a comment, a layout a 503 page', async () => {
    const { uid, about } = await buildSite();
    await ok(await admin('PUT', `/sites/${uid}/layout_pages/${about.id}`, { blocks: [
      { zone: 'main', type: 'liquid', source: '{% for i in (1..100000000) %}{{ i }}{% endfor %}' },
      { zone: 'main', type: 'rich_text', markdown: { en: 'Still here' } },
    ] }));
    const runaway = await ok(await admin('POST', `/sites/${uid}/layouts`, { name: 'runaway', source: '{% for i in (1..100000000) %}xxxxxxxx{% endfor %}' }), 201);
    const broken = await ok(await admin('POST', `/sites/${uid}/layout_pages`, { layout: runaway.name, locales: { en: { title: 'Broken', slug: 'broken' } } }), 201);
    expect(broken.layout).toBe('runaway');
    await ok(await admin('POST', `/sites/${uid}/publish`, {}), 201);
    const page = await h.request({ method: 'GET', url: `/sites/${uid}/about` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<!-- this liquid block could not be rendered -->');
    expect(page.body).toContain('<p>Still here</p>');
    const fallback = await h.request({ method: 'GET', url: `/sites/${uid}/broken` });
    expect(fallback.statusCode).toBe(503);
    expect(fallback.headers['retry-after']).toBe('60');
    expect(fallback.body).toContain('This page cannot be shown right now');
  });

  it('opens drafts through a signed preview link until it expires (410 after)', async () => {
    const { uid, home } = await buildSite();
    const link = await ok(await admin('POST', `/sites/${uid}/previews`, { page_id: home.id, locale: 'es' }), 201);
    const preview = await h.request({ method: 'GET', url: link.url });
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toContain('<h1>Bienvenido</h1>');
    expect((await h.request({ method: 'GET', url: `${link.url}x` })).statusCode).toBe(404);
    h.clock.advanceMinutes(11);
    expect((await h.request({ method: 'GET', url: link.url })).statusCode).toBe(410);
  });

  it('refuses a site role on a site that does not exist, and lets a site role reach the site\'s spaces', async () => {
    const { uid } = await buildSite();
    const refused = await admin('POST', '/team_members', { email: `${uniqueUid('m')}@example.com`, password: 'member password 1', roles: [{ key: 'site_viewer', target: 'mysite' }] });
    expect(refused.statusCode).toBe(422);
    const viewer = await memberToken(h, [{ key: 'site_viewer', target: uid }]);
    expect((await admin('GET', `/content/spaces/${space.uid}/types`, undefined, viewer)).statusCode).toBe(200);
    expect((await admin('GET', `/sites/${uid}`, undefined, viewer)).statusCode).toBe(200);
    expect((await admin('PUT', `/sites/${uid}`, { name: 'X' }, viewer)).statusCode).toBe(403);
  });

  it('answers a published menu to headless front ends, in a locale, with labels falling back to the default', async () => {
    const { uid } = await buildSite();
    await ok(await admin('POST', `/sites/${uid}/publish`, {}), 201);
    const menu = await ok(await h.request({ method: 'GET', url: `/api/content/sites/${uid}/menus/main?locale=es` }));
    expect(menu).toMatchObject({ uid: 'main', locale: 'es', items: [{ label: 'Acerca', url: `/sites/${uid}/es/nosotros`, children: [{ label: 'Team' }] }, { label: 'Blog', url: 'https://blog.example.com/' }] });
    expect((await h.request({ method: 'GET', url: `/api/content/sites/${uid}/menus/none` })).statusCode).toBe(404);
    // A locale past 100 characters is refused by the query's schema, as the reference page says.
    expect((await h.request({ method: 'GET', url: `/api/content/sites/${uid}/menus/main?locale=${'x'.repeat(101)}` })).statusCode).toBe(422);
  });

  it('gives one of 20 concurrent lock requests on a page the lock; another member\'s write is 409 ATR_LOCKED until taken over', async () => {
    const { uid, about } = await buildSite();
    const developers = await Promise.all(Array.from({ length: 20 }, () => memberToken(h, [{ key: 'site_developer', target: uid }])));
    const answers = await Promise.all(developers.map((token) => admin('POST', '/locks', { resource_type: 'layout_page', resource_id: String(about.id) }, token)));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(19);
    const holder = developers[answers.findIndex((a) => a.statusCode === 201)];
    const other = developers.find((d) => d !== holder)!;
    const write = await admin('PUT', `/sites/${uid}/layout_pages/${about.id}`, { locales: { en: { title: 'Mine' } } }, other);
    expect(write.statusCode).toBe(409);
    expect(write.headers['atrium-error-code']).toBe('ATR_LOCKED');
    await ok(await admin('PUT', `/sites/${uid}/layout_pages/${about.id}`, { locales: { en: { title: 'Holder' } } }, holder));
    const publisher = await memberToken(h, [{ key: 'site_admin', target: uid }]);
    const taken = await h.request({ method: 'PUT', url: `/api/admin/sites/${uid}/layout_pages/${about.id}`, token: publisher, headers: { 'atrium-lock-override': 'take-over' }, payload: { locales: { en: { title: 'Taken' } } } });
    expect(taken.statusCode, taken.body).toBe(200);
    expect((await admin('PUT', `/sites/${uid}/layout_pages/${about.id}`, { locales: { en: { title: 'Lost' } } }, holder)).statusCode).toBe(409);
  });
});
