import { declare, type CatalogName, type Declaration, type ErrorKind } from './registry.js';

export interface FieldError {
  field: string;
  messages: string[];
}

/** A body a specification or the platform facts fix (the customers API's `{}`, OAuth's RFC 6749 error): sent as is. */
export type FixedBody = Record<string, unknown>;

export interface ErrorOptions {
  details?: FieldError[];
  body?: FixedBody;
}

/**
 * Every error a client can be shown: a declared stable code and its kind, the texts a client reads and,
 * for validation, the attributes at fault. Operations throw these; `http/errors.ts` answers them.
 */
export class AppError extends Error {
  readonly code: string;
  readonly kind: ErrorKind;
  readonly details?: FieldError[];
  readonly body?: FixedBody;
  /** Headers the answer carries besides the body (an OAuth invalid_client's Basic challenge). */
  headers?: Record<string, string>;

  constructor(declaration: Declaration, readonly messages: string[], options: ErrorOptions = {}) {
    super(messages.join('; ') || declaration.description);
    this.code = declaration.code;
    this.kind = declaration.kind;
    this.details = options.details;
    this.body = options.body;
  }
}

interface Definition<A extends unknown[]> {
  /** The text a client reads; by default the description. */
  message?: (...args: A) => string;
  body?: FixedBody;
  catalogs?: readonly CatalogName[];
}

/** Declares an error with one text (as Fastify's lib/errors.js does): its code, its kind, and what it means. */
export function define<A extends unknown[] = []>(code: string, kind: ErrorKind, description: string, definition: Definition<A> = {}) {
  const declaration = declare({ code, kind, description, catalogs: definition.catalogs });
  const message = definition.message ?? (() => description);
  const make = (...args: A) => new AppError(declaration, [message(...args)], { body: definition.body });
  return Object.assign(make, { declaration });
}
