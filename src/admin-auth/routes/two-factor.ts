import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { ref, useModels } from '../../http/models.js';
import { failures, NoContent } from '../../http/responses.js';
import { acting } from '../guard.js';
import { Type } from '@sinclair/typebox';
import { listOf, metaOf, PageQuery, pageOf } from '../../http/pagination.js';
import { addPasskey, listPasskeys, passkeyRegistrationOptions, removePasskey } from '../passkeys.js';
import {
  IdParam, PasskeyAddedModel, PasskeyCreationOptionsModel, PasskeyInput, PasskeyModel, RecoveryCodesModel, TotpCodeInput, TotpEnrolmentModel, TwoFactorModel,
} from '../schema.js';
import { confirmTotp, regenerateRecoveryCodes, removeTotp, resetSecondFactor, startTotp, twoFactorStatus } from '../two-factor.js';

const tags = ['Session'];

/**
 * The signed-in member's own second factor (an authenticator app and its recovery codes), reachable by a
 * session that must enrol first (`config.enrolment`), and an owner's reset of a member's.
 */
export function twoFactorRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, TwoFactorModel, TotpEnrolmentModel, RecoveryCodesModel, PasskeyModel, PasskeyCreationOptionsModel, PasskeyAddedModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/two_factor', {
      config: { access: 'signed-in', enrolment: true },
      schema: {
        tags, summary: 'Own second factor',
        description: 'Whether the signed-in member has an authenticator app, how many recovery codes are left, and whether the account requires a second factor.',
        response: { 200: ref(TwoFactorModel), ...failures(401) },
      },
    }, async (request) => twoFactorStatus(acting(ctx, request)));

    app.post('/two_factor/totp', {
      config: { access: 'signed-in', enrolment: true },
      schema: {
        tags, summary: 'Start setting up an authenticator app',
        description: 'A new TOTP secret (RFC 6238: six digits, 30 seconds, SHA-1), stored sealed, with its otpauth:// address and QR code. '
          + 'It counts only once a code from the app is confirmed; starting again replaces an unconfirmed one. 409 when an app is already set up.',
        response: { 200: ref(TotpEnrolmentModel), ...failures(401, 403, 409) },
      },
    }, async (request) => startTotp(acting(ctx, request)));

    app.post('/two_factor/totp/confirm', {
      config: { access: 'signed-in', enrolment: true },
      schema: {
        tags, summary: 'Confirm the authenticator app',
        description: 'Takes a current code of the app being set up (422 otherwise), turns the second factor on and answers ten recovery codes, shown this once. '
          + 'From then on `POST /session` asks for a code. A session that could only enrol (the account requires a second factor) reaches everything again.',
        body: TotpCodeInput, response: { 200: ref(RecoveryCodesModel), ...failures(401, 403, 409, 422) },
      },
    }, async (request) => confirmTotp(acting(ctx, request), request.body.code));

    app.post('/two_factor/recovery_codes', {
      config: { access: 'signed-in' },
      schema: {
        tags, summary: 'Regenerate recovery codes',
        description: 'Ten new recovery codes, shown this once; the earlier ones stop working. 409 without an authenticator app.',
        response: { 200: ref(RecoveryCodesModel), ...failures(401, 403, 409) },
      },
    }, async (request) => regenerateRecoveryCodes(acting(ctx, request)));

    app.delete('/two_factor/totp', {
      config: { access: 'signed-in' },
      schema: {
        tags, summary: 'Remove the authenticator app',
        description: 'Removes the signed-in member\'s authenticator app (and the recovery codes, unless a passkey is left). 409 while the account requires a second factor and no passkey is left.',
        response: { 204: NoContent, ...failures(401, 403, 409) },
      },
    }, async (request, reply) => {
      await removeTotp(acting(ctx, request));
      return reply.code(204).send(null);
    });

    app.get('/two_factor/passkeys', {
      config: { access: 'signed-in', enrolment: true },
      schema: {
        tags, summary: 'Own passkeys',
        description: 'The signed-in member\'s passkeys (WebAuthn credentials), oldest first.',
        querystring: Type.Object(PageQuery), response: { 200: listOf('passkeys', ref(PasskeyModel)), ...failures(401) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { passkeys, total } = await listPasskeys(acting(ctx, request), page);
      return { passkeys, meta: metaOf(total, page) };
    });

    app.post('/two_factor/passkeys/options', {
      config: { access: 'signed-in', enrolment: true },
      schema: {
        tags, summary: 'Start adding a passkey',
        description: 'The options for the browser to make a passkey (`startRegistration` of `@simplewebauthn/browser`): the relying party is the host of '
          + 'the base address (`BASE_URL`), the challenge 256 random bits that work once, for 5 minutes (asking again replaces it). '
          + '409 when the base address is an IP address: passkeys need a host name such as `localhost`.',
        response: { 200: ref(PasskeyCreationOptionsModel), ...failures(401, 403, 409) },
      },
    }, async (request) => await passkeyRegistrationOptions(acting(ctx, request)) as never);

    app.post('/two_factor/passkeys', {
      config: { access: 'signed-in', enrolment: true },
      schema: {
        tags, summary: 'Add a passkey',
        description: 'Takes the browser\'s answer to `POST /two_factor/passkeys/options` (attestation `none`) and a name. From then on the passkey is a '
          + 'second factor: `POST /session` asks for it (or the app\'s code). When it is the member\'s first second factor, ten recovery codes come with it, '
          + 'shown this once, and a session that could only enrol reaches everything again. 422 for an answer that does not verify, or whose challenge expired or was used.',
        body: PasskeyInput, response: { 201: ref(PasskeyAddedModel), ...failures(401, 403, 409, 422) },
      },
    }, async (request, reply) => reply.code(201).send(await addPasskey(acting(ctx, request), request.body.name, request.body.response as never)));

    app.delete('/two_factor/passkeys/:id', {
      config: { access: 'signed-in' },
      schema: {
        tags, summary: 'Remove a passkey',
        description: 'Removes one of the signed-in member\'s passkeys (404 for another member\'s). 409 when it is the last second factor and the account requires one; '
          + 'removing the last second factor removes the recovery codes too.',
        params: IdParam, response: { 204: NoContent, ...failures(401, 403, 404, 409) },
      },
    }, async (request, reply) => {
      await removePasskey(acting(ctx, request), request.params.id);
      return reply.code(204).send(null);
    });

    app.delete('/team_members/:id/two_factor', {
      config: { access: 'team.manage' },
      schema: {
        tags: ['Team'], summary: 'Reset a member\'s second factor',
        description: 'For a member who lost their authenticator app, passkeys and recovery codes: removes them all, so that the member signs in with the password '
          + '(and sets up a new app first when the account requires one). Only an owner may (403 otherwise).',
        params: IdParam, response: { 204: NoContent, ...failures(401, 403, 404) },
      },
    }, async (request, reply) => {
      await resetSecondFactor(acting(ctx, request), request.params.id);
      return reply.code(204).send(null);
    });
  };
}
