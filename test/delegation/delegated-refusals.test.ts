import { describe, expect, it } from 'vitest';
import { signInAtProvider, startProvider } from './provider.js';
import {
  base, browser, expectNothingSecretLogged, h, idp, REALMS, sessionCookie, start, toCallback, useRig, warnings, withFlowCookie, written, type Browser,
} from './rig.js';

describe('a delegated sign-in refused (oidc-provider on a real port)', () => {
  useRig();

  describe('refuses with a page and writes nothing', () => {
    async function refused(b: Browser, callback: string, status: number, text: string): Promise<void> {
      const before = await written();
      const res = await b.atrium.fetch(callback);
      const page = await res.text();
      expect(res.status, page).toBe(status);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(page).toContain(text);
      expect(sessionCookie(b, REALMS.direct)).toBeUndefined();
      expect(await written()).toEqual(before);
    }

    it('a mismatched state (the flow stays usable for its own answer)', async () => {
      const b = browser();
      const { callback } = await toCallback(b, REALMS.direct, 'alice');
      const forged = new URL(callback);
      forged.searchParams.set('state', 'not-the-state-of-this-browser');
      await refused(b, forged.href, 400, 'does not belong to the sign-in started in this browser');
      expect((await b.atrium.fetch(callback)).status).toBe(303);
    });

    it('an answer reaching a browser that started no sign-in', async () => {
      const { callback } = await toCallback(browser(), REALMS.direct, 'alice');
      await refused(browser(), callback, 400, 'has expired or was started in another browser');
    });

    it('a flow older than ten minutes', async () => {
      const b = browser();
      const { callback } = await toCallback(b, REALMS.direct, 'alice');
      h.clock.advance(11 * 60_000);
      await refused(b, callback, 400, 'has expired');
    });

    it('the provider\'s error answer (access_denied)', async () => {
      const b = browser();
      const authorization = await start(b, REALMS.direct);
      const callback = await signInAtProvider(b.provider, authorization.href, 'alice', { deny: true });
      expect(new URL(callback).searchParams.get('error')).toBe('access_denied');
      await refused(b, callback, 403, 'did not allow the sign-in');
    });

    it('a replayed code', async () => {
      const b = browser();
      const { callback } = await toCallback(b, REALMS.direct, 'alice');
      const flow = b.atrium.get('atrium_delegation')!.value;
      expect((await b.atrium.fetch(callback)).status).toBe(303);
      const replay = withFlowCookie(flow);
      await refused(replay, callback, 400, 'could not be verified');
      expect(warnings().at(-1).reason).toContain('invalid_grant');
    });

    it('a second code for a flow already used (the flow is taken once)', async () => {
      const b = browser();
      const authorization = await start(b, REALMS.direct);
      const flow = b.atrium.get('atrium_delegation')!.value;
      const first = await signInAtProvider(b.provider, authorization.href, 'alice');
      // The provider remembers the consent: the same authorization request gives another code at once.
      const second = await signInAtProvider(b.provider, authorization.href, 'alice');
      expect(new URL(second).searchParams.get('code')).not.toBe(new URL(first).searchParams.get('code'));
      expect((await b.atrium.fetch(first)).status).toBe(303);
      const replay = withFlowCookie(flow);
      await refused(replay, second, 409, 'This sign-in was already used');
    });

    it('a foreign code: another browser\'s, given with this browser\'s state', async () => {
      const { callback: theirs } = await toCallback(browser(), REALMS.direct, 'alice');
      const b = browser();
      const { callback: mine } = await toCallback(b, REALMS.direct, 'bob');
      const crossed = new URL(mine);
      crossed.searchParams.set('code', new URL(theirs).searchParams.get('code')!);
      await refused(b, crossed.href, 400, 'could not be verified');
      expect(warnings().at(-1).reason).toContain('invalid_grant');
    });

    /** A sign-in whose token answer carries `forge(nonce)` as its ID token. */
    async function withIdToken(login: string, forge: (nonce: string) => Promise<string>): Promise<{ b: Browser; callback: string }> {
      const b = browser();
      const { callback, authorization } = await toCallback(b, REALMS.direct, login);
      const idToken = await forge(authorization.searchParams.get('nonce')!);
      idp.rewriteNextTokenAnswer((body) => ({ ...body, id_token: idToken }));
      return { b, callback };
    }

    it('accepts a well-made ID token of the provider\'s key through the same rig (the control)', async () => {
      const { b, callback } = await withIdToken('alice', (nonce) => idp.idToken({ sub: 'alice', nonce }, { now: h.clock.now() }));
      expect((await b.atrium.fetch(callback)).status).toBe(303);
    });

    // Each is the control's token with one thing wrong; times are on Atrium's (injected) clock.
    const now = () => ({ now: h.clock.now() });
    const forgeries: [string, (nonce: string) => Promise<string>, string][] = [
      ['a wrong audience', (nonce) => idp.idToken({ sub: 'alice', nonce, aud: 'another-client' }, now()), 'unexpected JWT "aud"'],
      ['a wrong issuer', (nonce) => idp.idToken({ sub: 'alice', nonce, iss: 'https://impostor.example' }, now()), 'unexpected JWT "iss"'],
      ['a wrong nonce', () => idp.idToken({ sub: 'alice', nonce: 'another-nonce' }, now()), 'unexpected ID Token "nonce"'],
      ['no nonce', () => idp.idToken({ sub: 'alice' }, now()), '"nonce" (nonce) claim missing'],
      ['a signature by another key', (nonce) => idp.idToken({ sub: 'alice', nonce }, { ...now(), foreignKey: true }), 'JWT signature verification failed'],
      ['an expiry passed', (nonce) => {
        const seconds = Math.floor(h.clock.now().getTime() / 1000);
        return idp.idToken({ sub: 'alice', nonce, iat: seconds - 7200, exp: seconds - 3600 }, now());
      }, 'unexpected JWT "exp"'],
    ];
    for (const [label, forge, reason] of forgeries) {
      it(`an ID token with ${label} (openid-client's check says why, in the log)`, async () => {
        const { b, callback } = await withIdToken('alice', forge);
        await refused(b, callback, 400, 'could not be verified');
        expect(warnings().at(-1)).toMatchObject({ msg: 'a delegated sign-in was refused', reason: expect.stringContaining(reason) });
      });
    }
  });


  it('takes one flow once under 8 simultaneous callbacks, each with a code the provider honours', async () => {
    const b = browser();
    const authorization = await start(b, REALMS.direct);
    // The same authorization request, answered 8 times by the provider: 8 good codes for one state.
    const callbacks: string[] = [];
    for (let i = 0; i < 8; i++) callbacks.push(await signInAtProvider(b.provider, authorization.href, 'alice'));
    expect(new Set(callbacks.map((c) => new URL(c).searchParams.get('code'))).size).toBe(8);
    const cookie = b.atrium.header(`/realms/${REALMS.direct}/delegated_login/callback`);
    const before = await written();
    const answers = await Promise.all(callbacks.map((callback) => fetch(callback, { headers: { cookie }, redirect: 'manual' })));
    expect(answers.map((a) => a.status).sort()).toEqual([303, 409, 409, 409, 409, 409, 409, 409]);
    const after = await written();
    expect(after.sessions - before.sessions).toBe(1);
    expect(after.tokens - before.tokens).toBe(1);
    expect(after.states - before.states).toBe(1);
  });

  it('lets at most one of 10 simultaneous replays of one callback through (the provider revokes a replayed code\'s tokens)', async () => {
    const b = browser();
    const { callback } = await toCallback(b, REALMS.direct, 'alice');
    const cookie = b.atrium.header(`/realms/${REALMS.direct}/delegated_login/callback`);
    const before = await written();
    const answers = await Promise.all(Array.from({ length: 10 }, () => fetch(callback, { headers: { cookie }, redirect: 'manual' })));
    const signedIn = answers.filter((a) => a.status === 303).length;
    expect(signedIn).toBeLessThanOrEqual(1);
    expect(answers.filter((a) => a.status >= 400 && a.status < 500)).toHaveLength(10 - signedIn);
    expect((await written()).sessions - before.sessions).toBe(signedIn);
  });

  it('makes every request to the provider through the outbound guard: closed to loopback, neither discovery nor the token request leaves', async () => {
    const b = browser();
    // Discovery (and so the provider's metadata) is done while loopback is open; then the server is closed to it.
    const { callback } = await toCallback(b, REALMS.direct, 'alice');
    const tokenRequests = idp.tokenRequests;
    const before = await written();
    h.ctx.config.outboundAllowPrivate = false;
    try {
      const res = await b.atrium.fetch(callback);
      expect(res.status).toBe(400);
      expect(idp.tokenRequests).toBe(tokenRequests);
      expect(await written()).toEqual(before);
      expect(warnings().at(-1)).toMatchObject({ msg: 'a delegated sign-in was refused', reason: expect.stringMatching(/^could not reach the provider \(refused: /) });
      // Another realm's provider, not yet discovered: the start stops before any request leaves.
      expect((await browser().atrium.fetch(`/realms/${REALMS.moderated}/delegated_login`)).status).toBe(502);
    } finally {
      h.ctx.config.outboundAllowPrivate = true;
    }
  });

  it('ends a flow whose provider changed meanwhile (409), and tells when the provider does not answer (502)', async () => {
    const b = browser();
    const { callback } = await toCallback(b, REALMS.strict, 'alice');
    const other = await startProvider([`${base}/realms/${REALMS.strict}/delegated_login/callback`]);
    const url = `/api/admin/customers/${REALMS.strict}/identity_provider`;
    expect((await h.request({ method: 'PUT', url, payload: { issuer: other.issuer } })).statusCode).toBe(200);
    const before = await written();
    const changed = await b.atrium.fetch(callback);
    expect(changed.status).toBe(409);
    expect(await changed.text()).toContain('changed while you were signing in');
    expect(await written()).toEqual(before);

    await other.close();
    const down = await browser().atrium.fetch(`/realms/${REALMS.strict}/delegated_login`);
    expect(down.status).toBe(502);
    expect(await down.text()).toContain('Example ID is not answering at the moment');
    expect((await h.request({ method: 'PUT', url, payload: { issuer: idp.issuer } })).statusCode).toBe(200);
  });

  it('speaks the browser\'s language: the button and a refusal page in Spanish with Accept-Language: es', async () => {
    const es = { 'accept-language': 'es' };
    const b = browser();
    const login = await (await b.atrium.fetch(`/realms/${REALMS.invitation}/login`, { headers: es })).text();
    expect(login).toContain('<button type="submit">Iniciar sesión con Example ID</button>');
    const before = await written();
    const res = await b.atrium.fetch((await toCallback(b, REALMS.invitation, 'alice')).callback, { headers: es });
    const page = await res.text();
    expect(res.status).toBe(403);
    expect(res.headers.get('vary')).toContain('Accept-Language');
    expect(page).toContain('<html lang="es">');
    expect(page).toContain('<title>Error: Inicio de sesión no completado');
    expect(page).toContain('Ninguna cuenta de este servicio está vinculada a tu cuenta de Example ID, y aquí no se pueden crear cuentas nuevas.');
    expect(page).toContain('>Volver a iniciar sesión</a>');
    expect(page).not.toContain('Sign');
    expect(await written()).toEqual(before);
  });

  it('logged why each was refused, and nothing secret', () => {
    expect(warnings().length).toBeGreaterThan(8);
    expectNothingSecretLogged();
  });
});
