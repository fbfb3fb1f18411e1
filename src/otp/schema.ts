import { Type } from '@sinclair/typebox';

/** Longer than any email address (RFC 5321: 254) or username; a longer identifier is refused (422) unread. */
export const IDENTIFIER_MAX = 320;

export const VerifyInput = Type.Object({
  identifier: Type.String({ maxLength: IDENTIFIER_MAX, description: 'The user\'s email or username' }),
  code: Type.String({ maxLength: 64, description: 'The 6-digit code; any other text is a wrong code (409)' }),
});
