import { declaredCodes, type CatalogName, type Declaration } from '../errors/index.js';
import { statusOf } from './errors.js';

/**
 * The codes a catalog's operation may answer with `status`: every declared code of a kind mapping to
 * that status that the catalog answers. Which of them a given operation raises is not known statically,
 * so the list is the catalog's, per status (docs/features/shared-rules.md, Errors).
 */
export function codesOf(catalog: CatalogName, status: number): readonly string[] {
  const declarations = declaredCodes();
  let lists = listsByDeclarations.get(declarations);
  if (!lists) listsByDeclarations.set(declarations, lists = new Map());
  const key = `${catalog} ${status}`;
  let codes = lists.get(key);
  if (!codes) {
    codes = declarations.filter((d) => statusOf(d.kind) === status && (!d.catalogs || d.catalogs.includes(catalog))).map((d) => d.code);
    lists.set(key, codes);
  }
  return codes;
}

/** Per set of declarations (a new declaration makes a new set), each catalog's codes per status: asked once per route and failure. */
const listsByDeclarations = new WeakMap<readonly Declaration[], Map<string, readonly string[]>>();

/** Documents on each failure (status 400 and above) of a route the Atrium-Error-Code header, with the codes it may carry. */
export function listCodes(responses: Record<string, unknown>, catalog: CatalogName): Record<string, unknown> {
  return Object.fromEntries(Object.entries(responses).map(([status, schema]) => {
    const codes = Number(status) >= 400 ? codesOf(catalog, Number(status)) : [];
    if (!codes.length) return [status, schema];
    const response = schema as { headers?: Record<string, unknown> };
    const header = { type: 'string', enum: codes, description: 'The error\'s stable code' };
    return [status, { ...response, headers: { ...response.headers, 'Atrium-Error-Code': header } }];
  }));
}
