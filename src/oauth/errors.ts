import { AppError, declare, type Declaration, type ErrorKind } from '../errors/index.js';

/** An RFC 6749 section 5.2 error code, declared once with its stable code; the OAuth endpoints are outside the catalogs. */
function oauthCode(error: string, kind: ErrorKind, description: string): Declaration {
  return declare({ code: `ATR_OAUTH_${error.toUpperCase()}`, kind, description, catalogs: [] });
}

const INVALID_REQUEST = oauthCode('invalid_request', 'bad_request', 'OAuth: the request is missing a parameter or is malformed');
const INVALID_CLIENT = oauthCode('invalid_client', 'unauthenticated', 'OAuth: client authentication failed');
const INVALID_GRANT = oauthCode('invalid_grant', 'bad_request', 'OAuth: the grant is not valid, has expired or was used');
const UNSUPPORTED_GRANT_TYPE = oauthCode('unsupported_grant_type', 'bad_request', 'OAuth: the grant type is not supported');

/**
 * An OAuth error, one class per RFC 6749 section 5.2 error code as node-oidc-provider has them. It
 * answers `{"error", "error_description"}`; being an AppError with a fixed body, the shared handler answers it.
 */
export class OAuthError extends AppError {
  constructor(declaration: Declaration, readonly error: string, description: string) {
    super(declaration, [description], { body: { error, error_description: description } });
  }
}

export class InvalidRequest extends OAuthError {
  constructor(description: string) {
    super(INVALID_REQUEST, 'invalid_request', description);
  }
}

/**
 * RFC 6749 5.2: a client that tried HTTP Basic is answered 401 with a Basic challenge. `basic` says
 * whether it did; only then does the answer carry WWW-Authenticate.
 */
export class InvalidClient extends OAuthError {
  constructor(basic: boolean, description = 'client authentication failed') {
    super(INVALID_CLIENT, 'invalid_client', description);
    if (basic) this.headers = { 'www-authenticate': 'Basic realm="oauth", charset="UTF-8"' };
  }
}

export class InvalidGrant extends OAuthError {
  constructor(description: string) {
    super(INVALID_GRANT, 'invalid_grant', description);
  }
}

export class UnsupportedGrantType extends OAuthError {
  constructor(description: string) {
    super(UNSUPPORTED_GRANT_TYPE, 'unsupported_grant_type', description);
  }
}

const INVALID_TOKEN = oauthCode('invalid_token', 'unauthenticated', 'OAuth: the access token is missing, unknown, revoked or of an ended session');
const INSUFFICIENT_SCOPE = oauthCode('insufficient_scope', 'forbidden', 'OAuth: the access token was not granted the scope this endpoint needs');

/** RFC 6750 3.1: a bearer token refused, with its challenge. */
export class InvalidToken extends OAuthError {
  constructor(description: string) {
    super(INVALID_TOKEN, 'invalid_token', description);
    this.headers = { 'www-authenticate': `Bearer error="invalid_token", error_description="${description}"` };
  }
}

export class InsufficientScope extends OAuthError {
  constructor(scope: string) {
    super(INSUFFICIENT_SCOPE, 'insufficient_scope', `the access token needs the scope ${scope}`);
    this.headers = { 'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}"` };
  }
}

const INVALID_SCOPE = oauthCode('invalid_scope', 'bad_request', 'OAuth: the scope asked for is unknown or exceeds the one granted');

export class InvalidScope extends OAuthError {
  constructor(description: string) {
    super(INVALID_SCOPE, 'invalid_scope', description);
  }
}

const UNAUTHORIZED_CLIENT = oauthCode('unauthorized_client', 'bad_request', 'OAuth: the client is not allowed this grant type');

export class UnauthorizedClient extends OAuthError {
  constructor(description: string) {
    super(UNAUTHORIZED_CLIENT, 'unauthorized_client', description);
  }
}
