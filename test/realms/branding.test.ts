import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm } from '../helpers/realms.js';

const NO_BRANDING = { logo_url: null, primary_color: null, page_title: null };

describe('branding of the realm pages', () => {
  let h: Harness;

  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  const put = (uid: string, settings: Record<string, unknown>) =>
    h.request({ method: 'PUT', url: `/api/admin/realms/${uid}`, payload: { settings } });
  const page = (uid: string, path = 'login') => h.request({ method: 'GET', url: `/realms/${uid}/${path}`, token: null });

  it('has no branding and English by default; PUT changes each attribute alone, null or "" clears it', async () => {
    const realm = await makeRealm(h);
    expect(realm.settings).toMatchObject({ default_language: 'en', branding: NO_BRANDING });

    const set = await put(realm.uid, { branding: { logo_url: ' https://cdn.brand.test/logo.png ', primary_color: '#0F766E', page_title: ' Acme ' } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().settings.branding).toEqual({ logo_url: 'https://cdn.brand.test/logo.png', primary_color: '#0f766e', page_title: 'Acme' });

    const partial = await put(realm.uid, { branding: { page_title: null } });
    expect(partial.json().settings.branding).toEqual({ logo_url: 'https://cdn.brand.test/logo.png', primary_color: '#0f766e', page_title: null });
    const other = await put(realm.uid, { session_lifetime_minutes: 30 });
    expect(other.json().settings.branding.primary_color).toBe('#0f766e');
    const cleared = await put(realm.uid, { branding: { logo_url: '', primary_color: null } });
    expect(cleared.json().settings.branding).toEqual(NO_BRANDING);

    const read = await h.request({ method: 'GET', url: `/api/admin/realms/${realm.uid}` });
    expect(read.json().settings.branding).toEqual(NO_BRANDING);
    const created = await makeRealm(h, { settings: { default_language: 'es', branding: { primary_color: '#fff', logo_url: '/logo.svg' } } });
    expect(created.settings).toMatchObject({ default_language: 'es', branding: { primary_color: '#fff', logo_url: '/logo.svg', page_title: null } });
  });

  it('refuses a colour that is not hex, a logo that is not https or a path, and a title too long or with control characters', async () => {
    const realm = await makeRealm(h);
    const refused = async (branding: Record<string, unknown>, field: string, message: string) => {
      const res = await put(realm.uid, { branding });
      expect(res.statusCode, JSON.stringify(branding)).toBe(422);
      expect(res.json().details, JSON.stringify(branding)).toEqual([{ field: `settings.branding.${field}`, messages: [message] }]);
    };
    const COLOR = 'must be a hex colour such as #1d4ed8 or #fff';
    for (const color of ['red', '#12345', '#gggggg', '1d4ed8', '#1d4ed8; background: url(x)', 'var(--x)', '#1d4ed8ff']) {
      await refused({ primary_color: color }, 'primary_color', COLOR);
    }
    const LOGO = 'must be an absolute https address, or a path starting with "/"';
    for (const url of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)//', 'http://cdn.brand.test/logo.png', 'data:image/png;base64,AAAA',
      '//evil.test/logo.png', 'logo.png', 'https://', 'ftp://cdn.brand.test/logo.png']) {
      await refused({ logo_url: url }, 'logo_url', LOGO);
    }
    for (const url of ['/logo.png\u0007', '/lo go.png', '/\\evil.test/logo.png', 'https://cdn.brand.test/a\nb']) {
      await refused({ logo_url: url }, 'logo_url', 'may not contain blanks, control characters or backslashes');
    }
    await refused({ logo_url: `https://cdn.brand.test/${'a'.repeat(2048)}` }, 'logo_url', 'is too long (maximum is 2048 characters)');
    await refused({ logo_url: 'https://user:secret@cdn.brand.test/logo.png' }, 'logo_url', 'may not contain a user name or password');
    for (const url of ["https://cdn;script-src'unsafe-inline'.test/x.png", 'https://[::1]/logo.png', 'https://cdn*.test/x.png']) {
      await refused({ logo_url: url }, 'logo_url', 'must name its host by a domain name or an IPv4 address');
    }
    await refused({ page_title: 'a'.repeat(121) }, 'page_title', 'is too long (maximum is 120 characters)');
    await refused({ page_title: 'Acme\u001bBank' }, 'page_title', 'may not contain control characters');

    const several = await put(realm.uid, { default_language: 'fr', branding: { primary_color: 'blue', logo_url: 'javascript:x' } });
    expect(several.statusCode).toBe(422);
    expect(several.json().details.map((d: { field: string }) => d.field).sort())
      .toEqual(['settings.branding.logo_url', 'settings.branding.primary_color', 'settings.default_language']);
    const unknown = await put(realm.uid, { branding: { font: 'Comic Sans' } });
    expect(unknown.statusCode).toBe(422);
    const read = await h.request({ method: 'GET', url: `/api/admin/realms/${realm.uid}` });
    expect(read.json().settings.branding).toEqual(NO_BRANDING);
  });

  it('shows the logo, the colour and the page title on every realm page, escaped', async () => {
    const realm = await makeRealm(h, {
      name: 'Acme & Co',
      settings: { branding: { logo_url: 'https://cdn.brand.test:8443/logo.png?v=1&size=2', primary_color: '#0f766e', page_title: '<script>alert(1)</script> "Acme"' } },
    });
    for (const path of ['login', 'otp_login', 'password', 'signup']) {
      const res = await page(realm.uid, path);
      expect(res.statusCode, path).toBe(200);
      expect(res.body).toContain('<header><img class="logo" src="https://cdn.brand.test:8443/logo.png?v=1&amp;size=2" alt="Acme &amp; Co"></header>');
      expect(res.body).toMatch(/<title>[^<]+ · &lt;script&gt;alert\(1\)&lt;\/script&gt; &quot;Acme&quot;<\/title>/);
      expect(res.body).not.toContain('<script>');
      expect(res.body).toContain(':root { --atrium-primary: #0f766e; --atrium-on-primary: #ffffff; --atrium-link: #0f766e; }');
      expect(res.headers['content-security-policy'])
        .toBe("default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https://cdn.brand.test:8443; base-uri 'none'; frame-ancestors 'none'");
    }
    // The heading keeps the realm's name; the page title only ends the document's title.
    expect((await page(realm.uid)).body).toContain('<h1>Sign in to Acme &amp; Co</h1>');
  });

  it('picks black or white text for the button, and keeps the browser\'s link colour where the brand colour is hard to read', async () => {
    const light = await makeRealm(h, { settings: { branding: { primary_color: '#FACC15' } } });
    const res = await page(light.uid);
    expect(res.body).toContain(':root { --atrium-primary: #facc15; --atrium-on-primary: #000000; --atrium-link: LinkText; }');
    expect(res.body).toContain('@media (prefers-color-scheme: dark) { :root { --atrium-link: #facc15; } }');
    expect(res.body).not.toContain('<header>');
    expect(res.headers['content-security-policy']).toContain("img-src 'self';");

    const dark = await makeRealm(h, { settings: { branding: { primary_color: '#000', logo_url: '/uploads/logo.png' } } });
    const darkPage = await page(dark.uid);
    expect(darkPage.body).toContain(':root { --atrium-primary: #000; --atrium-on-primary: #ffffff; --atrium-link: #000; }');
    expect(darkPage.body).toContain('@media (prefers-color-scheme: dark) { :root { --atrium-link: LinkText; } }');
    expect(darkPage.body).toContain('<img class="logo" src="/uploads/logo.png"');
    expect(darkPage.headers['content-security-policy']).toContain("img-src 'self';");

    const plain = await makeRealm(h);
    const plainPage = await page(plain.uid);
    expect(plainPage.body).not.toContain('--atrium-primary:');
    expect(plainPage.body).toContain('background: var(--atrium-primary, #1d4ed8)');
  });
});
