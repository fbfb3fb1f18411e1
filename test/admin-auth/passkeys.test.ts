import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SoftAuthenticator } from '../helpers/authenticator.js';
import { createMember, signIn, type Member } from '../helpers/admin.js';
import { startHarness, type Harness } from '../helpers/harness.js';

type Session = { cookie: string; csrf: string };

// Passkeys (WebAuthn) as a second factor of team members (issue 29), with a software authenticator (ES256, 'none' attestation).
describe('passkeys of team members', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  const origin = () => new URL(h.ctx.config.baseUrl).origin;
  const as = (session: Session) => ({ token: null, headers: { cookie: session.cookie, 'x-csrf-token': session.csrf } });
  const password = (member: Member) => h.request({ method: 'POST', url: '/api/admin/session', token: null, payload: { email: member.email, password: member.password } });
  const secondStep = (payload: Record<string, unknown>) => h.request({ method: 'POST', url: '/api/admin/session/second_factor', token: null, payload });
  const options = (session: Session) => h.request({ method: 'POST', url: '/api/admin/two_factor/passkeys/options', ...as(session) });
  const add = (session: Session, name: string, response: unknown) => h.request({ method: 'POST', url: '/api/admin/two_factor/passkeys', ...as(session), payload: { name, response } });

  /** Adds a passkey made by a new software authenticator through the member's session. */
  async function enrol(session: Session, name = 'Work laptop') {
    const authenticator = new SoftAuthenticator(origin());
    const started = await options(session);
    expect(started.statusCode).toBe(200);
    expect(started.json()).toMatchObject({ rp: { id: 'atrium.test' }, challenge: expect.any(String), attestation: 'none' });
    const added = await add(session, name, authenticator.register(started.json()));
    expect(added.statusCode).toBe(201);
    return { authenticator, added: added.json() };
  }

  async function challengeOf(member: Member): Promise<{ challenge: string; webauthn_options: { challenge: string; rpId: string; allowCredentials: { id: string }[] }; second_factors: string[] }> {
    const res = await password(member);
    expect(res.statusCode).toBe(401);
    expect(res.cookies.find((c) => c.name === 'atrium_admin')).toBeUndefined();
    expect(res.json().code).toBe('ATR_SECOND_FACTOR_REQUIRED');
    return res.json();
  }

  it('adds a named passkey, answers recovery codes with the first, and signs in with it as the second step', async () => {
    const member = await createMember(h, [{ key: 'account_user' }]);
    const session = await signIn(h, member.email, member.password);
    expect((await h.request({ url: '/api/admin/two_factor', ...as(session) })).json())
      .toEqual({ totp: false, passkeys: 0, passkeys_available: true, recovery_codes_left: 0, required: false });
    const { authenticator, added } = await enrol(session);
    expect(added).toMatchObject({ passkey: { id: expect.any(Number), name: 'Work laptop', transports: ['internal'], last_used_at: null } });
    expect(added.recovery_codes).toHaveLength(10);
    // A second passkey brings no new recovery codes, and the first is not offered for creation again.
    const second = await options(session);
    expect(second.json().excludeCredentials.map((c: { id: string }) => c.id)).toEqual([authenticator.id]);
    const other = new SoftAuthenticator(origin());
    const secondAdded = await add(session, 'Phone', other.register(second.json()));
    expect(secondAdded.statusCode).toBe(201);
    expect(secondAdded.json().recovery_codes).toBeUndefined();
    const listed = await h.request({ url: '/api/admin/two_factor/passkeys', ...as(session) });
    expect(listed.json()).toMatchObject({ passkeys: [{ name: 'Work laptop' }, { name: 'Phone' }], meta: { total_entries: 2 } });
    expect((await h.request({ url: '/api/admin/two_factor', ...as(session) })).json()).toMatchObject({ totp: false, passkeys: 2, recovery_codes_left: 10 });

    const step = await challengeOf(member);
    expect(step.second_factors).toEqual(['webauthn', 'recovery_code']);
    expect(step.webauthn_options.rpId).toBe('atrium.test');
    expect(step.webauthn_options.allowCredentials.map((c) => c.id).sort()).toEqual([authenticator.id, other.id].sort());
    expect(step.webauthn_options.challenge).not.toBe(step.challenge);

    // Signed for another origin, or over another challenge: refused, and the same challenge can be tried again.
    expect((await secondStep({ challenge: step.challenge, webauthn: authenticator.authenticate(step.webauthn_options, { origin: 'https://evil.test' }) })).statusCode).toBe(401);
    expect((await secondStep({ challenge: step.challenge, webauthn: authenticator.authenticate({ challenge: 'AAAA' }) })).statusCode).toBe(401);
    const answer = authenticator.authenticate(step.webauthn_options);
    const right = await secondStep({ challenge: step.challenge, webauthn: answer });
    expect(right.statusCode).toBe(200);
    expect(right.json()).toMatchObject({ admin: { email: member.email }, credential: 'session', csrf_token: expect.any(String) });
    // The challenge ends with the sign-in; the same answer does not open another one.
    expect((await secondStep({ challenge: step.challenge, webauthn: answer })).json().code).toBe('ATR_SIGN_IN_CHALLENGE_EXPIRED');
    const next = await challengeOf(member);
    expect((await secondStep({ challenge: next.challenge, webauthn: answer })).statusCode).toBe(401);
    // A counter that does not move forward is a cloned authenticator.
    expect((await secondStep({ challenge: next.challenge, webauthn: authenticator.authenticate(next.webauthn_options, { counter: authenticator.counter }) })).statusCode).toBe(401);
    expect((await secondStep({ challenge: next.challenge, webauthn: authenticator.authenticate(next.webauthn_options) })).statusCode).toBe(200);
    const used = (await h.request({ url: '/api/admin/two_factor/passkeys', ...as(session) })).json().passkeys[0];
    expect(used.last_used_at).toEqual(expect.any(String));

    // Another member's passkey does not answer for this one.
    const stranger = await createMember(h, [{ key: 'account_user' }]);
    const strangerKey = (await enrol(await signIn(h, stranger.email, stranger.password))).authenticator;
    const third = await challengeOf(member);
    expect((await secondStep({ challenge: third.challenge, webauthn: strangerKey.authenticate(third.webauthn_options) })).statusCode).toBe(401);
    // The API's bearer tokens need no second step.
    expect((await h.request({ url: '/api/admin/roles', token: member.token })).statusCode).toBe(200);
  });

  it('takes a registration challenge once, within five minutes, for this site only, and a name', async () => {
    const member = await createMember(h, [{ key: 'account_user' }]);
    const session = await signIn(h, member.email, member.password);
    const authenticator = new SoftAuthenticator(origin());
    const started = (await options(session)).json();
    expect((await add(session, '  ', authenticator.register(started))).json().details[0].field).toBe('name');
    expect((await add(session, 'Key', authenticator.register(started, { origin: 'https://evil.test' }))).statusCode).toBe(422);
    expect((await add(session, 'Key', authenticator.register(started, { type: 'webauthn.get' }))).statusCode).toBe(422);
    expect((await add(session, 'Key', authenticator.register({ challenge: 'c2VsZi1tYWRl' }))).statusCode).toBe(422);
    expect((await add(session, 'Key', { id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: '!!', attestationObject: '' } })).statusCode).toBe(422);
    const response = authenticator.register(started);
    expect((await add(session, 'Key', response)).statusCode).toBe(201);
    const replay = await add(session, 'Key again', response);
    expect(replay.statusCode).toBe(422);
    expect(replay.json().details[0].field).toBe('response');

    const late = (await options(session)).json();
    h.clock.advanceMinutes(6);
    expect((await add(session, 'Late', new SoftAuthenticator(origin()).register(late))).statusCode).toBe(422);
    // Asking again replaces the earlier challenge.
    const first = (await options(session)).json();
    const latest = (await options(session)).json();
    expect((await add(session, 'Old', new SoftAuthenticator(origin()).register(first))).statusCode).toBe(422);
    expect((await add(session, 'New', new SoftAuthenticator(origin()).register(latest))).statusCode).toBe(201);
  });

  it('offers no passkeys when the base address is an IP address, and says why', async () => {
    const member = await createMember(h, [{ key: 'account_user' }]);
    const session = await signIn(h, member.email, member.password);
    const { authenticator } = await enrol(session);
    const base = h.ctx.config.baseUrl;
    h.ctx.config.baseUrl = 'http://127.0.0.1:3000';
    try {
      expect((await h.request({ url: '/api/admin/two_factor', ...as(session) })).json().passkeys_available).toBe(false);
      const refused = await options(session);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().errors[0]).toMatch(/host name.*not an IP address/);
      const step = await challengeOf(member);
      expect(step.second_factors).toEqual(['recovery_code']);
      expect(step.webauthn_options).toBeUndefined();
      expect((await secondStep({ challenge: step.challenge, webauthn: authenticator.authenticate({ challenge: 'AAAA' }) })).statusCode).toBe(401);
    } finally {
      h.ctx.config.baseUrl = base;
    }
  });

  it('takes the same answer once when it is sent several times at once', async () => {
    const member = await createMember(h, [{ key: 'account_user' }]);
    const { authenticator } = await enrol(await signIn(h, member.email, member.password));
    const step = await challengeOf(member);
    const answer = authenticator.authenticate(step.webauthn_options);
    const answers = await Promise.all(Array.from({ length: 4 }, () => secondStep({ challenge: step.challenge, webauthn: answer })));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 401)).toBe(true);
  });

  it('locks the second step after ten wrong passkey answers, as wrong passwords do', async () => {
    const member = await createMember(h, [{ key: 'account_user' }]);
    const { authenticator } = await enrol(await signIn(h, member.email, member.password));
    const locking = await challengeOf(member);
    for (let i = 0; i < 10; i++) {
      expect((await secondStep({ challenge: locking.challenge, webauthn: authenticator.authenticate({ challenge: 'AAAA' }) })).statusCode).toBe(401);
    }
    const locked = await secondStep({ challenge: locking.challenge, webauthn: authenticator.authenticate(locking.webauthn_options) });
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBe(String(15 * 60));
  });

  it('counts as the second factor the account requires; removing the last one takes the recovery codes; an owner reset removes passkeys', async () => {
    const required = await h.request({ method: 'PUT', url: '/api/admin/account', payload: { second_factor_required: true } });
    expect(required.json().second_factor_required).toBe(true);
    let passkeyId: number;
    let member: Member;
    let session: Session;
    try {
      member = await createMember(h, [{ key: 'account_user' }]);
      const signedIn = await password(member);
      expect(signedIn.json().second_factor_enrolment_required).toBe(true);
      session = { cookie: `atrium_admin=${signedIn.cookies.find((c) => c.name === 'atrium_admin')!.value}`, csrf: signedIn.json().csrf_token };
      expect((await h.request({ url: '/api/admin/roles', ...as(session) })).json().code).toBe('ATR_SECOND_FACTOR_ENROLMENT');
      const { added } = await enrol(session);
      passkeyId = added.passkey.id;
      expect((await h.request({ url: '/api/admin/roles', ...as(session) })).statusCode).toBe(200);
      const last = await h.request({ method: 'DELETE', url: `/api/admin/two_factor/passkeys/${passkeyId}`, ...as(session) });
      expect(last.statusCode).toBe(409);
      expect(last.json().code).toBe('ATR_TWO_FACTOR_STATE');
    } finally {
      await h.request({ method: 'PUT', url: '/api/admin/account', payload: { second_factor_required: false } });
    }
    // Not another member's.
    const other = await createMember(h, [{ key: 'account_user' }]);
    expect((await h.request({ method: 'DELETE', url: `/api/admin/two_factor/passkeys/${passkeyId}`, token: other.token })).statusCode).toBe(404);
    expect((await h.request({ method: 'DELETE', url: `/api/admin/two_factor/passkeys/${passkeyId}`, ...as(session) })).statusCode).toBe(204);
    expect((await h.request({ url: '/api/admin/two_factor', ...as(session) })).json()).toMatchObject({ passkeys: 0, recovery_codes_left: 0 });
    expect((await password(member)).statusCode).toBe(200);

    await enrol(session, 'Again');
    await challengeOf(member);
    expect((await h.request({ method: 'DELETE', url: `/api/admin/team_members/${member.id}/two_factor` })).statusCode).toBe(204);
    expect((await h.request({ url: '/api/admin/two_factor', ...as(session) })).json()).toMatchObject({ passkeys: 0, recovery_codes_left: 0 });
    expect((await password(member)).statusCode).toBe(200);
  });

  it('offers a passkey beside the authenticator app; removing the app keeps the passkey and the recovery codes', async () => {
    const member = await createMember(h, [{ key: 'account_user' }]);
    const session = await signIn(h, member.email, member.password);
    const { secret } = (await h.request({ method: 'POST', url: '/api/admin/two_factor/totp', ...as(session) })).json();
    const code = () => generateSync({ secret, epoch: Math.floor(h.clock.now().getTime() / 1000) });
    const confirmed = await h.request({ method: 'POST', url: '/api/admin/two_factor/totp/confirm', ...as(session), payload: { code: code() } });
    expect(confirmed.statusCode).toBe(200);
    h.clock.advance(30_000);
    const { authenticator, added } = await enrol(session);
    expect(added.recovery_codes).toBeUndefined();
    expect((await h.request({ url: '/api/admin/two_factor', ...as(session) })).json()).toMatchObject({ totp: true, passkeys: 1, recovery_codes_left: 10 });
    const step = await challengeOf(member);
    expect(step.second_factors).toEqual(['totp', 'webauthn', 'recovery_code']);
    expect((await secondStep({ challenge: step.challenge, totp: code() })).statusCode).toBe(200);

    await h.request({ method: 'PUT', url: '/api/admin/account', payload: { second_factor_required: true } });
    try {
      // The passkey is left: the app can go even though the account requires a second factor.
      expect((await h.request({ method: 'DELETE', url: '/api/admin/two_factor/totp', ...as(session) })).statusCode).toBe(204);
    } finally {
      await h.request({ method: 'PUT', url: '/api/admin/account', payload: { second_factor_required: false } });
    }
    expect((await h.request({ url: '/api/admin/two_factor', ...as(session) })).json()).toMatchObject({ totp: false, passkeys: 1, recovery_codes_left: 10 });
    const next = await challengeOf(member);
    expect(next.second_factors).toEqual(['webauthn', 'recovery_code']);
    expect((await secondStep({ challenge: next.challenge, webauthn: authenticator.authenticate(next.webauthn_options) })).statusCode).toBe(200);
  });
});
