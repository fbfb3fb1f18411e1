import fc from 'fast-check';
import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import { arbitraryOf, hostile, oddString, type GeneratorOptions, type Schema } from './arbitrary.js';


export type Credential = 'owner' | 'none' | 'garbage' | 'customer-session' | 'customer-token';

/** One operation of a catalog, as its OpenAPI document declares it. */
export interface Operation {
  catalog: string;
  prefix: string;
  method: string;
  path: string;
  parameters: { name: string; in: 'path' | 'query'; required?: boolean; schema: Schema }[];
  body?: { type: string; schema: Schema; required: boolean };
  secured: boolean;
  /**
   * Per declared status: a validator of its JSON body (compiled when the status is first answered: most never are),
   * null where it has none (204), `any` for a file of any type.
   */
  responses: Map<number, (() => ValidateFunction) | null | 'any'>;
}

export interface FuzzRequest {
  method: string;
  url: string;
  credential: Credential;
  contentType?: string;
  payload?: string | Buffer;
}

/** Reads every operation of an OpenAPI document, with its response schemas compiled. */
export function operationsOf(catalog: string, prefix: string, document: Schema): Operation[] {
  const ajv = new Ajv({ strict: false, allErrors: true });
  // ajv-formats is CommonJS: under ESM its plugin is the module's `default`.
  formats.default(ajv);
  ajv.addFormat('binary', true);
  // The document's components once; each response schema's local references (`#/components/...`) point at them.
  const documentId = `${catalog}:document`;
  ajv.addSchema({ $id: documentId, components: document.components });
  const lazily = (schema: Schema) => {
    let validate: ValidateFunction | undefined;
    return () => (validate ??= ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${documentId}#/components/`))));
  };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries<Schema>(document.paths)) {
    for (const [method, operation] of Object.entries<Schema>(methods)) {
      const responses = new Map<number, (() => ValidateFunction) | null | 'any'>();
      for (const [status, response] of Object.entries<Schema>(operation.responses)) {
        const content = response.content ?? {};
        const schema = content['application/json']?.schema;
        // A JSON schema of type null declares an empty body (a 200 without content); other media types, a file's bytes.
        if (schema && schema.type !== 'null') responses.set(Number(status), lazily(schema));
        else responses.set(Number(status), Object.keys(content).some((type) => type !== 'application/json') ? 'any' : null);
      }
      const [bodyType, bodyContent] = Object.entries<Schema>(operation.requestBody?.content ?? {})[0] ?? [];
      operations.push({
        catalog, prefix, method: method.toUpperCase(), path, responses,
        parameters: operation.parameters ?? [],
        body: bodyType ? { type: bodyType, schema: bodyContent.schema, required: Boolean(operation.requestBody.required) } : undefined,
        // A requirement `{}` among the alternatives makes the credential optional (OpenAPI 3.1, Security Requirement Object).
        secured: securedBy((operation.security ?? document.security ?? []) as object[]),
      });
    }
  }
  return operations;
}

const securedBy = (requirements: object[]) => requirements.length > 0 && requirements.every((r) => Object.keys(r).length > 0);

/** Each byte as a URL carries it: letters, digits, `_~-` as themselves, every other byte escaped. */
const ENCODED_BYTES = Array.from({ length: 256 }, (_, byte) => (/[A-Za-z0-9_~-]/.test(String.fromCharCode(byte))
  ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`));

/**
 * The long strings' encodings: the same few megabyte values come back in most operations' samples. A few only, and
 * flat: a string built by `+=` byte by byte is a chain of millions of pieces, and 32 of them held 500 MB of the
 * worker's heap for the rest of the run (every later file then paid seconds of garbage collection).
 */
const encodedLong = new Map<string, string>();
const ENCODED_LONG_KEPT = 8;

/** Percent-encodes a path segment byte by byte, so that any string (a lone surrogate too) can be sent. */
function segment(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (!text) return '%20';
  const known = encodedLong.get(text);
  if (known !== undefined) return known;
  const encoded = Array.from(Buffer.from(text, 'utf8'), (byte) => ENCODED_BYTES[byte]).join('');
  if (text.length > 1000) {
    if (encodedLong.size >= ENCODED_LONG_KEPT) encodedLong.clear();
    encodedLong.set(text, encoded);
  }
  return encoded;
}

/** Segments no encoder makes: broken escapes, invalid UTF-8. */
const RAW_SEGMENTS = ['%', '%ZZ', '%C3', '%E6%97', '%FF%FE', '%00', '%2F', '%2E%2E'];

function queryOf(pairs: [string, unknown][]): string {
  const text = pairs.map(([name, value]) => `${segment(name)}=${segment(value)}`).join('&');
  return text ? `?${text}` : '';
}

/** Known-good values per path parameter, keyed by the collection before it (`/roles/{id}` → roles). */
export type KnownValues = (operation: Operation, parameter: string) => unknown[];

/** Requests for an operation: valid, fuzzed and hostile values everywhere, with and without a credential. */
export function requestsFor(operation: Operation, known: KnownValues, options: GeneratorOptions, credentials: Credential[]): fc.Arbitrary<FuzzRequest> {
  const pathParameters = operation.parameters.filter((p) => p.in === 'path');
  const queryParameters = operation.parameters.filter((p) => p.in === 'query');
  const pathValues = fc.tuple(...pathParameters.map((parameter) => {
    const values = known(operation, parameter.name);
    return fc.oneof(
      { weight: values.length ? 6 : 0, arbitrary: values.length ? fc.constantFrom(...values).map(segment) : fc.constant('1') },
      { weight: 2, arbitrary: arbitraryOf(parameter.schema, options, false).map(segment) },
      { weight: 1, arbitrary: hostile.map(segment) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
    );
  }));
  const query = fc.tuple(...queryParameters.map((parameter) => fc.option(fc.oneof(
    { weight: 3, arbitrary: arbitraryOf(parameter.schema, options, false) },
    { weight: 3, arbitrary: fc.constantFrom(...(options.hint(parameter.name) ?? ['1'])) },
    { weight: 1, arbitrary: hostile },
  ), { freq: 2 }).map((value) => [parameter.name, value] as [string, unknown])))
    .chain((pairs) => fc.option(fc.tuple(oddString, oddString), { freq: 5 }).map((extra) => [...pairs, ...(extra ? [extra] : [])]));
  return fc.record({
    path: pathValues,
    query,
    body: bodyOf(operation, options),
    credential: fc.constantFrom(...credentials),
  }).map(({ path, query: pairs, body, credential }) => {
    let i = 0;
    const url = operation.prefix + operation.path.replace(/\{[^}]+\}/g, () => path[i++]) + queryOf(pairs.filter(([, v]) => v !== null));
    return { method: operation.method, url, credential, ...body };
  });
}

function bodyOf(operation: Operation, options: GeneratorOptions): fc.Arbitrary<{ contentType?: string; payload?: string | Buffer }> {
  const body = operation.body;
  if (!body) return fc.constant({});
  if (body.type === 'multipart/form-data') return multipartBody;
  const json = (value: unknown) => ({ contentType: 'application/json', payload: JSON.stringify(value) });
  return fc.oneof(
    { weight: 4, arbitrary: arbitraryOf(body.schema, options, false).map(json) },
    { weight: 4, arbitrary: arbitraryOf(body.schema, options, true).map(json) },
    { weight: 1, arbitrary: hostile.map(json) },
    { weight: 1, arbitrary: fc.constantFrom(
      {}, { contentType: 'application/json', payload: '' }, { contentType: 'application/json', payload: '{"a":' },
      { contentType: 'text/plain', payload: 'hello' }, { contentType: 'application/x-www-form-urlencoded', payload: 'name=a&name=b&x=%00' },
      { contentType: 'application/json', payload: '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}' },
    ) },
  );
}

const BOUNDARY = 'fuzzboundary';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

/** Multipart bodies: a small real image, random bytes, a wrong part name, a truncated stream. */
const multipartBody = fc.record({
  field: fc.constantFrom('file', 'file', 'other'),
  name: fc.constantFrom('avatar.png', 'avatar.jpg', 'noext', 'a.exe'),
  content: fc.oneof(fc.constant(PNG), fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a))),
  truncated: fc.boolean(),
}).map(({ field, name, content, truncated }) => {
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(truncated ? '' : `\r\n--${BOUNDARY}--\r\n`);
  return { contentType: `multipart/form-data; boundary=${BOUNDARY}`, payload: Buffer.concat([head, content, tail]) };
});

/** What is wrong with an answer, or null: a 5xx, a status the document does not declare, a body off its schema, a secured 2xx without credential. */
export function problemWith(operation: Operation, request: FuzzRequest, status: number, body: string): string | null {
  if (status >= 500) return `answered ${status}`;
  if (!operation.responses.has(status)) return `answered undeclared ${status}`;
  const credentialed = request.credential !== 'none' && request.credential !== 'garbage';
  if (operation.secured && !credentialed && status < 300) return `answered ${status} without a credential`;
  const validator = operation.responses.get(status);
  if (validator === 'any') return null;
  if (!validator) return body === '' ? null : `answered ${status} with a body where none is declared`;
  const validate = validator();
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `answered ${status} with a body that is not JSON`;
  }
  return validate(parsed) ? null : `answered ${status} off its schema: ${JSON.stringify(validate.errors?.slice(0, 3))}`;
}
