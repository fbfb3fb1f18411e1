import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, signIn, type Member } from '../helpers/admin.js';
import { startHarness, type Harness } from '../helpers/harness.js';

type Session = { cookie: string; csrf: string };

describe('two-factor sign-in of team members', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  /** The code an authenticator app shows at the server's (injected) time. */
  const codeAt = (secret: string) => generateSync({ secret, epoch: Math.floor(h.clock.now().getTime() / 1000) });
  const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  const nextStep = () => h.clock.advance(30_000);
  const as = (session: Session) => ({ token: null, headers: { cookie: session.cookie, 'x-csrf-token': session.csrf } });
  const password = (member: Member) => h.request({ method: 'POST', url: '/api/admin/session', token: null, payload: { email: member.email, password: member.password } });
  const secondStep = (payload: Record<string, string>) => h.request({ method: 'POST', url: '/api/admin/session/second_factor', token: null, payload });

  /** Sets up an authenticator app for the member through its own session; answers the secret and the recovery codes. */
  async function enrol(session: Session): Promise<{ secret: string; codes: string[] }> {
    const started = await h.request({ method: 'POST', url: '/api/admin/two_factor/totp', ...as(session) });
    expect(started.statusCode).toBe(200);
    const { secret, otpauth_uri: uri, qr_code: qr } = started.json();
    expect(uri).toMatch(new RegExp(`^otpauth://totp/.*secret=${secret}`));
    expect(qr).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qr.split(',')[1], 'base64').toString()).toContain('<svg');
    const wrong = await h.request({ method: 'POST', url: '/api/admin/two_factor/totp/confirm', ...as(session), payload: { code: wrongOf(codeAt(secret)) } });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().details[0].field).toBe('code');
    const confirmed = await h.request({ method: 'POST', url: '/api/admin/two_factor/totp/confirm', ...as(session), payload: { code: codeAt(secret) } });
    expect(confirmed.statusCode).toBe(200);
    const codes: string[] = confirmed.json().recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    nextStep();
    return { secret, codes };
  }

  async function challengeOf(member: Member): Promise<string> {
    const res = await password(member);
    expect(res.statusCode).toBe(401);
    expect(res.cookies.find((c) => c.name === 'atrium_admin')).toBeUndefined();
    expect(res.json()).toMatchObject({ code: 'ATR_SECOND_FACTOR_REQUIRED', challenge: expect.any(String), second_factors: ['totp', 'recovery_code'] });
    return res.json().challenge;
  }

  it('signs a member with an authenticator app in with a code of it, each code once, within the challenge\'s five minutes', async () => {
    const member = await createMember(h, [{ key: 'account_user' }]);
    const { secret } = await enrol(await signIn(h, member.email, member.password));
    expect((await h.request({ url: '/api/admin/two_factor', token: member.token })).json()).toEqual({ totp: true, passkeys: 0, passkeys_available: true, recovery_codes_left: 10, required: false });

    const challenge = await challengeOf(member);
    const wrong = await secondStep({ challenge, totp: wrongOf(codeAt(secret)) });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ errors: ['Invalid code'], code: 'ATR_UNAUTHENTICATED' });
    const right = await secondStep({ challenge, totp: codeAt(secret) });
    expect(right.statusCode).toBe(200);
    expect(right.json()).toMatchObject({ admin: { email: member.email }, csrf_token: expect.any(String), credential: 'session' });
    const cookie = right.cookies.find((c) => c.name === 'atrium_admin')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect((await h.request({ url: '/api/admin/roles', token: null, headers: { cookie: `atrium_admin=${cookie.value}` } })).statusCode).toBe(200);

    // The challenge ends with the sign-in; the same code does not work twice.
    expect((await secondStep({ challenge, totp: codeAt(secret) })).json().code).toBe('ATR_SIGN_IN_CHALLENGE_EXPIRED');
    const again = await challengeOf(member);
    expect((await secondStep({ challenge: again, totp: codeAt(secret) })).statusCode).toBe(401);
    nextStep();
    expect((await secondStep({ challenge: again, totp: codeAt(secret) })).statusCode).toBe(200);

    const late = await challengeOf(member);
    h.clock.advanceMinutes(6);
    expect((await secondStep({ challenge: late, totp: codeAt(secret) })).json().code).toBe('ATR_SIGN_IN_CHALLENGE_EXPIRED');
    // The API's bearer tokens need no second step.
    expect((await h.request({ url: '/api/admin/roles', token: member.token })).statusCode).toBe(200);
  });

  it('takes each recovery code once, and regenerating them retires the earlier ones', async () => {
    const member = await createMember(h, [{ key: 'account_user' }]);
    const session = await signIn(h, member.email, member.password);
    const { codes } = await enrol(session);
    const first = await secondStep({ challenge: await challengeOf(member), recovery_code: ` ${codes[0].toUpperCase()} ` });
    expect(first.statusCode).toBe(200);
    expect((await secondStep({ challenge: await challengeOf(member), recovery_code: codes[0] })).statusCode).toBe(401);
    expect((await h.request({ url: '/api/admin/two_factor', token: member.token })).json().recovery_codes_left).toBe(9);

    const renewed = await h.request({ method: 'POST', url: '/api/admin/two_factor/recovery_codes', ...as(session) });
    expect(renewed.statusCode).toBe(200);
    const fresh: string[] = renewed.json().recovery_codes;
    expect(fresh).toHaveLength(10);
    expect((await secondStep({ challenge: await challengeOf(member), recovery_code: codes[1] })).statusCode).toBe(401);
    expect((await secondStep({ challenge: await challengeOf(member), recovery_code: fresh[1] })).statusCode).toBe(200);
  });

  // Four at once, twice: the wrong ones stay below the attempt limit whatever the order.
  it('takes a code once when it is sent several times at once', async () => {
    const member = await createMember(h, [{ key: 'account_user' }]);
    const { secret, codes } = await enrol(await signIn(h, member.email, member.password));
    const factors: Record<string, string>[] = [{ totp: codeAt(secret) }, { recovery_code: codes[0] }];
    for (const factor of factors) {
      const challenge = await challengeOf(member);
      const answers = await Promise.all(Array.from({ length: 4 }, () => secondStep({ challenge, ...factor })));
      expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
      expect(answers.every((answer) => answer.statusCode === 200 || answer.statusCode === 401)).toBe(true);
    }
  });

  it('locks the second step after ten wrong codes, as wrong passwords do', async () => {
    const member = await createMember(h, [{ key: 'account_user' }]);
    const { secret } = await enrol(await signIn(h, member.email, member.password));
    const challenge = await challengeOf(member);
    for (let i = 0; i < 10; i++) expect((await secondStep({ challenge, totp: wrongOf(codeAt(secret)) })).statusCode).toBe(401);
    const locked = await secondStep({ challenge, totp: codeAt(secret) });
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBe(String(15 * 60));
  });

  it('with the account-wide requirement, sends a member without a second factor to enrol and lets it reach nothing else until then', async () => {
    const required = await h.request({ method: 'PUT', url: '/api/admin/account', payload: { second_factor_required: true } });
    expect(required.json().second_factor_required).toBe(true);
    try {
      const member = await createMember(h, [{ key: 'account_user' }]);
      const signedIn = await password(member);
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.json().second_factor_enrolment_required).toBe(true);
      const session = { cookie: `atrium_admin=${signedIn.cookies.find((c) => c.name === 'atrium_admin')!.value}`, csrf: signedIn.json().csrf_token };
      const blocked = await h.request({ url: '/api/admin/roles', ...as(session) });
      expect(blocked.statusCode).toBe(403);
      expect(blocked.json().code).toBe('ATR_SECOND_FACTOR_ENROLMENT');
      expect((await h.request({ url: '/api/admin/session', ...as(session) })).json().second_factor_enrolment_required).toBe(true);
      expect((await h.request({ url: '/api/admin/two_factor', ...as(session) })).json()).toEqual({ totp: false, passkeys: 0, passkeys_available: true, recovery_codes_left: 0, required: true });
      // Its access tokens are not held back.
      expect((await h.request({ url: '/api/admin/roles', token: member.token })).statusCode).toBe(200);

      const { secret } = await enrol(session);
      expect((await h.request({ url: '/api/admin/roles', ...as(session) })).statusCode).toBe(200);
      expect((await h.request({ url: '/api/admin/session', ...as(session) })).json().second_factor_enrolment_required).toBeUndefined();
      const removed = await h.request({ method: 'DELETE', url: '/api/admin/two_factor/totp', ...as(session) });
      expect(removed.statusCode).toBe(409);
      expect((await secondStep({ challenge: await challengeOf(member), totp: codeAt(secret) })).statusCode).toBe(200);
    } finally {
      await h.request({ method: 'PUT', url: '/api/admin/account', payload: { second_factor_required: false } });
    }
  });

  it('lets only an owner reset the second factor of a member who lost it', async () => {
    const member = await createMember(h, [{ key: 'account_user' }]);
    await enrol(await signIn(h, member.email, member.password));
    const admin = await createMember(h, [{ key: 'account_admin' }]);
    const byAdmin = await h.request({ method: 'DELETE', url: `/api/admin/team_members/${member.id}/two_factor`, token: admin.token });
    expect(byAdmin.statusCode).toBe(403);
    await challengeOf(member);
    expect((await h.request({ method: 'DELETE', url: '/api/admin/team_members/999999/two_factor' })).statusCode).toBe(404);
    expect((await h.request({ method: 'DELETE', url: `/api/admin/team_members/${member.id}/two_factor` })).statusCode).toBe(204);
    expect((await password(member)).statusCode).toBe(200);
    expect((await h.request({ url: '/api/admin/two_factor', token: member.token })).json()).toEqual({ totp: false, passkeys: 0, passkeys_available: true, recovery_codes_left: 0, required: false });
  });

  it('lets a member remove its own authenticator app', async () => {
    const member = await createMember(h, [{ key: 'account_user' }]);
    const session = await signIn(h, member.email, member.password);
    await enrol(session);
    expect((await h.request({ method: 'DELETE', url: '/api/admin/two_factor/totp', ...as(session) })).statusCode).toBe(204);
    expect((await password(member)).statusCode).toBe(200);
  });
});
