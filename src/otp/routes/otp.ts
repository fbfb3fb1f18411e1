import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../context.js';
import { customerRealmOf } from '../../customers/credential.js';
import { RealmNotFound } from '../../customers/schema.js';
import { otpAttemptsExceeded, otpCodeInvalid } from '../../errors/index.js';
import { ref } from '../../http/models.js';
import { failures } from '../../http/responses.js';
import { checkCode, secondsUntil } from '../codes.js';
import { VerifyInput } from '../schema.js';

const tags = ['One-time codes'];
const Params = Type.Object({ realm_uid: Type.String({ description: 'The realm\'s uid' }) });

export function otpRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/realms/:realm_uid/verify_otp_code', {
      config: { customerAccess: 'realm' },
      schema: {
        tags, summary: 'Check a one-time code', security: [],
        description: 'Needs no credential. Checks the code last sent to the user the identifier (email or username) names, by '
          + 'the realm page otp_login; the right unexpired code answers 200 `{}` and is used up. A wrong or expired code, a code '
          + 'that is not 6 digits and an identifier naming no active user all answer 409 alike. After five failures every check '
          + 'answers 429, even with the right code, until a new code is requested. After twenty failures within 24 hours of the '
          + 'first, every check answers 429 with `Retry-After`, whatever the code, until those 24 hours have passed or the user\'s '
          + 'password is reset. The failures are counted per user together with those of the otp_code page (the same code), '
          + 'apart from password failures.',
        params: Params, body: VerifyInput,
        response: {
          200: Type.Object({}, { additionalProperties: false, description: 'The code was right; it is used up' }),
          404: { ...ref(RealmNotFound), description: 'Unknown or inactive realm' },
          ...failures(409, 422, 429),
        },
      },
    }, async (request) => {
      const result = await checkCode(ctx, customerRealmOf(request), request.body.identifier, request.body.code);
      if (result.ok) return {};
      if (result.reason === 'invalid') throw otpCodeInvalid();
      const exceeded = otpAttemptsExceeded();
      if (result.retryAt) exceeded.headers = { 'retry-after': String(secondsUntil(ctx.clock.now(), result.retryAt)) };
      throw exceeded;
    });
  };
}
