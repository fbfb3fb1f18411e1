import { AppError } from '../http/errors.js';

/**
 * An OAuth error, one class per RFC 6749 section 5.2 error code as node-oidc-provider has them. It
 * answers `{"error", "error_description"}`; being an AppError with a fixed body, the shared handler answers it.
 */
export class OAuthError extends AppError {
  constructor(readonly error: string, description: string, status = 400) {
    super(status, [description], undefined, { error, error_description: description }, `ATR_OAUTH_${error.toUpperCase()}`);
  }
}

export class InvalidRequest extends OAuthError {
  constructor(description: string) {
    super('invalid_request', description);
  }
}

/**
 * RFC 6749 5.2: a client that tried HTTP Basic is answered 401 with a Basic challenge. `basic` says
 * whether it did; only then does the answer carry WWW-Authenticate.
 */
export class InvalidClient extends OAuthError {
  constructor(basic: boolean, description = 'client authentication failed') {
    super('invalid_client', description, 401);
    if (basic) this.headers = { 'www-authenticate': 'Basic realm="oauth", charset="UTF-8"' };
  }
}

export class InvalidGrant extends OAuthError {
  constructor(description: string) {
    super('invalid_grant', description);
  }
}

export class UnsupportedGrantType extends OAuthError {
  constructor(description: string) {
    super('unsupported_grant_type', description);
  }
}
