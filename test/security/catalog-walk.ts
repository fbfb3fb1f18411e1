import type { Schema } from '../fuzz/arbitrary.js';
import { operationsOf, type Operation } from '../fuzz/operations.js';
import type { Harness } from '../helpers/harness.js';

/** What the walk fills requests with. */
export interface Seed {
  realmUid: string;
  /** Path parameter values by the collection before them (`/users/{id}` → users, `{delivery_id}` → deliveries). */
  ids: Record<string, (number | string)[]>;
  /** Values of body properties by name; the others get a plain value of their type. */
  hints: Record<string, unknown>;
  /** Values of query parameters by name; the others are left out. */
  query: Record<string, string | number>;
}

export interface WalkAnswer {
  /** `METHOD /path` as the catalog's reference names it. */
  operation: string;
  status: number;
  body: string;
}

const COLLECTIONS: Record<string, string> = { delivery_id: 'deliveries', token_id: 'access_tokens', session_id: 'sessions' };
const ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Sends one request to every operation of the admin catalog, in its reference, with `token`: reads
 * first, removals last (the deepest paths first), so that what the answers might show still exists when it is read. Path
 * parameters are the seeded ids (every combination), bodies the required properties and the hinted
 * ones. `readOnly` sends the reads and the POSTs that only read (previews and counts).
 */
export async function walkAdminCatalog(h: Harness, token: string, seed: Seed, { readOnly }: { readOnly: boolean }): Promise<WalkAnswer[]> {
  const document = (await h.request({ method: 'GET', url: '/api/admin/docs/openapi.json', token: null })).json() as Schema;
  const resolve = (ref: string) => ref.replace(/^#\//, '').split('/').reduce((node: Schema, key) => node[key], document);
  const operations = operationsOf('admin', document.servers[0].url, document)
    .filter((op) => !readOnly || op.method === 'GET' || /\/(preview|count_matches|preview_matches)$/.test(op.path))
    // Within a method, deeper paths first: a realm or a campaign goes after what it holds.
    .sort((a, b) => ORDER.indexOf(a.method) - ORDER.indexOf(b.method) || b.path.split('/').length - a.path.split('/').length);
  const answers: WalkAnswer[] = [];
  for (const operation of operations) {
    const query = new URLSearchParams();
    for (const parameter of operation.parameters.filter((p) => p.in === 'query')) {
      if (seed.query[parameter.name] !== undefined) query.set(parameter.name, String(seed.query[parameter.name]));
    }
    const payload = operation.body?.type === 'application/json' ? JSON.stringify(valueOf(operation.body.schema, resolve, seed.hints)) : undefined;
    for (const path of pathsOf(operation, seed)) {
      const res = await h.request({
        method: operation.method as 'GET', url: `${operation.prefix}${path}${query.size ? `?${query}` : ''}`, token, payload,
        headers: payload === undefined ? {} : { 'content-type': 'application/json' },
      });
      answers.push({ operation: `${operation.method} ${operation.path}`, status: res.statusCode, body: res.body });
    }
  }
  return answers;
}

/** The operation's path with every combination of the seeded values of its parameters. */
function pathsOf(operation: Operation, seed: Seed): string[] {
  let paths = [operation.path];
  const segments = operation.path.split('/');
  for (const parameter of operation.parameters.filter((p) => p.in === 'path')) {
    const collection = COLLECTIONS[parameter.name] ?? segments[segments.indexOf(`{${parameter.name}}`) - 1];
    const values = parameter.name === 'realm_uid' ? [seed.realmUid] : seed.ids[collection] ?? [1];
    paths = paths.flatMap((path) => values.map((value) => path.replace(`{${parameter.name}}`, encodeURIComponent(String(value)))));
  }
  return paths;
}

/** A plain value a schema accepts: the hint of its name, else the first choice, else something of its type. */
function valueOf(schema: Schema, resolve: (ref: string) => Schema, hints: Record<string, unknown>, name?: string): unknown {
  if (name !== undefined && hints[name] !== undefined) return hints[name];
  if (schema.$ref) return valueOf(resolve(schema.$ref), resolve, hints);
  if ('const' in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  const alternatives: Schema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (alternatives) return valueOf(alternatives.find((s) => s.type !== 'null') ?? alternatives[0], resolve, hints);
  switch (schema.type) {
    case 'string': return stringOf(schema);
    case 'integer': case 'number': return Math.max(schema.minimum ?? 1, 1);
    case 'boolean': return true;
    case 'array': return Array.from({ length: schema.minItems ?? 0 }, () => valueOf(schema.items ?? {}, resolve, hints));
    default: {
      const required = new Set<string>(schema.required ?? []);
      return Object.fromEntries(Object.entries<Schema>(schema.properties ?? {})
        .filter(([key]) => required.has(key) || hints[key] !== undefined)
        .map(([key, inner]) => [key, valueOf(inner, resolve, hints, key)]));
    }
  }
}

function stringOf(schema: Schema): string {
  switch (schema.format) {
    case 'email': return 'walker@example.com';
    case 'date-time': return '2100-01-01T00:00:00Z';
    case 'uri': return 'https://example.test/walk';
    case 'uuid': return '00000000-0000-4000-8000-000000000000';
    default: return 'walk'.padEnd(schema.minLength ?? 0, 'x');
  }
}
