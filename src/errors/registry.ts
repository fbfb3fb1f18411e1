/**
 * What an error is, whatever the transport: `http/` maps each kind to a status. A client reads the
 * code; the kind only says how the refusal travels.
 */
export type ErrorKind =
  | 'bad_request' | 'unauthenticated' | 'forbidden' | 'not_found' | 'not_acceptable' | 'conflict' | 'too_large'
  | 'uri_too_long' | 'unsupported' | 'invalid' | 'gone' | 'rate_limited' | 'internal' | 'unavailable';

/** The four API catalogs, by the last segment of their prefix. */
export type CatalogName = 'admin' | 'content' | 'profile' | 'customers';

export interface Declaration {
  code: string;
  kind: ErrorKind;
  /** One line: what the code means to a client. */
  description: string;
  /** Catalogs whose operations may answer the code; absent, every catalog's. */
  catalogs?: readonly CatalogName[];
}

const declarations = new Map<string, Declaration>();
/** The sorted list, kept until the next declaration: every route's failures read it at start-up. */
let sorted: readonly Declaration[] | null = null;

/** Declares a stable code once; the registry lists it in the OpenAPI documents and the client's union of codes. */
export function declare(declaration: Declaration): Declaration {
  if (declarations.has(declaration.code)) throw new Error(`Error code ${declaration.code} is declared twice`);
  declarations.set(declaration.code, declaration);
  sorted = null;
  return declaration;
}

/**
 * Codes (capitals, digits, `_`) in the order localeCompare gives them, `_` before digits and letters, without
 * it: a first collation maps megabytes of the runtime's locale data into the process.
 */
const sortKey = (code: string) => code.replaceAll('_', ' ');

/** Every declared code, sorted; the same list until another code is declared. */
export function declaredCodes(): readonly Declaration[] {
  sorted ??= [...declarations.values()].sort((a, b) => (sortKey(a.code) < sortKey(b.code) ? -1 : 1));
  return sorted;
}
