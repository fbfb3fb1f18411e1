import { describe, expect, it } from 'vitest';
// The package's source, not `@atrium/client`: the worktree's node_modules may hold another checkout's build.
import { errorOf, RealmNotFoundError } from '../../packages/client/src/errors.js';

const answer = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'application/json', ...headers } });

describe('the client\'s error codes', () => {
  it('reads the code from the body of the admin and profile APIs', async () => {
    const error = await errorOf(answer(422, '{"errors":["Name can\'t be blank"],"code":"ATR_INVALID"}', { 'atrium-error-code': 'ATR_INVALID' }), false);
    expect(error.code).toBe('ATR_INVALID');
  });

  it('reads it from the Atrium-Error-Code header where the body is fixed', async () => {
    const error = await errorOf(answer(404, '{}', { 'atrium-error-code': 'ATR_REALM_NOT_FOUND' }), true);
    expect(error).toBeInstanceOf(RealmNotFoundError);
    expect(error.code).toBe('ATR_REALM_NOT_FOUND');
  });

  it('has none for an answer that did not come from Atrium', async () => {
    expect((await errorOf(answer(502, 'Bad gateway'), false)).code).toBeUndefined();
  });
});
