import fc from 'fast-check';

/** A JSON Schema as an OpenAPI document holds it. */
export type Schema = Record<string, any>;

export interface GeneratorOptions {
  /** Resolves a `$ref` (`#/components/schemas/X`) of the document. */
  resolve(ref: string): Schema;
  /** Known-good values for a property of that name (an existing realm uid, a role key), mixed in to reach past 404 and 422. */
  hint(property: string): unknown[] | undefined;
}

const INTEGER_EDGES = [0, -1, 1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 2 ** 40, -(2 ** 40), Number.MAX_SAFE_INTEGER, 2 ** 64, 1e308];

const ODD_STRINGS = [
  '', ' ', '\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\ud83d', '\u202eevil\u202c', '\u200f\u200e', '😀👩‍👩‍👧‍👦', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', 'après 日本',
  '\ufeff', '\r\n\t', '__proto__', 'constructor', 'toString', "'; drop table realms; --", '%00', '%ZZ', '../../etc/passwd', '<script>x</script>',
  'null', 'true', '-1', '2147483648', '1e309', 'NaN',
];

const longString = fc.constantFrom(300, 5_000, 70_000, 1_100_000).map((n) => 'x'.repeat(n));

/** Strings a careless parser or database column trips on. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 1, arbitrary: longString },
);

const deepNesting = fc.constantFrom(64, 3_000).chain((depth) => fc.constantFrom<unknown>(
  Array.from({ length: depth }).reduce<unknown>((inner) => [inner], 1),
  Array.from({ length: depth }).reduce<unknown>((inner) => ({ a: inner }), 1),
));

/** Anything at all, of any type: what a client that ignores the schema sends. */
export const hostile: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: oddString },
  { weight: 3, arbitrary: fc.constantFrom<unknown>(...INTEGER_EDGES) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(true, false, null, [], {}) },
  { weight: 1, arbitrary: fc.dictionary(oddString, fc.oneof(oddString, fc.integer()), { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.array(fc.oneof(oddString, fc.integer()), { maxLength: 3 }) },
  { weight: 1, arbitrary: deepNesting },
);

const plainText = fc.oneof(
  fc.string({ maxLength: 16 }),
  fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/),
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9 -]{0,15}$/),
);

/** Date-times at and past the edges of what PostgreSQL stores: year 0, year 1 with an offset, five-digit years, a leap second. */
const dateEdges = fc.constantFrom(
  '0000-01-01T00:00:00Z', '0001-01-01T00:00:00Z', '0001-01-01T00:30:00+01:00', '9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59-01:00',
  '10000-01-01T00:00:00Z', '+275760-09-13T00:00:00.000Z', '-000001-01-01T00:00:00.000Z', '2026-02-30T00:00:00Z', '2026-12-31T23:59:60Z',
  '1970-01-01T00:00:00', '2026-01-01',
);

function stringOf(schema: Schema): fc.Arbitrary<string> {
  switch (schema.format) {
    case 'email': return fc.emailAddress();
    case 'uuid': return fc.uuid();
    case 'date-time': return fc.oneof({ weight: 3, arbitrary: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()) }, { weight: 1, arbitrary: dateEdges });
    case 'uri': return fc.webUrl();
    default: {
      const { minLength = 0, maxLength } = schema;
      const text = fc.oneof(plainText, fc.webUrl({ validSchemes: ['https'] }), fc.constant('a long enough password'));
      return text.filter((s) => s.length >= minLength && (maxLength === undefined || s.length <= maxLength));
    }
  }
}

function integerOf(schema: Schema): fc.Arbitrary<number> {
  const min = schema.minimum ?? -(2 ** 31);
  const max = schema.maximum ?? 2 ** 31 - 1;
  const small = fc.integer({ min: Math.max(min, -5), max: Math.min(max, 200) });
  return min <= Math.min(max, 200) && Math.max(min, -5) <= max ? fc.oneof(small, fc.integer({ min, max })) : fc.integer({ min, max });
}

/**
 * Values for a schema. `fuzz` off: values the schema accepts (bar formats and rules a schema cannot
 * say). `fuzz` on: mostly the same shapes, but any node may instead be hostile, an object may lose a
 * required property or gain an unknown one.
 */
export function arbitraryOf(schema: Schema, options: GeneratorOptions, fuzz: boolean, depth = 0): fc.Arbitrary<unknown> {
  const shaped = shapedBy(schema, options, fuzz, depth);
  return fuzz ? fc.oneof({ weight: 8, arbitrary: shaped }, { weight: 1, arbitrary: hostile }) : shaped;
}

function shapedBy(schema: Schema, options: GeneratorOptions, fuzz: boolean, depth: number): fc.Arbitrary<unknown> {
  const next = (inner: Schema) => arbitraryOf(inner, options, fuzz, depth + 1);
  if (schema.$ref) return shapedBy(options.resolve(schema.$ref), options, fuzz, depth);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s: Schema) => shapedBy(s, options, fuzz, depth)));
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type: string) => shapedBy({ ...schema, type }, options, fuzz, depth)));
  switch (schema.type) {
    case 'string': return stringOf(schema);
    case 'integer': return integerOf(schema);
    case 'number': return fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum, max: schema.maximum });
    case 'boolean': return fc.boolean();
    case 'null': return fc.constant(null);
    case 'array': {
      if (depth > 4) return fc.constant([]);
      return fc.array(next(schema.items ?? {}), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 3, 3) });
    }
    case 'object': case undefined: {
      if (!schema.properties) return depth > 4 ? fc.constant({}) : fc.jsonValue({ maxDepth: 2 });
      return objectOf(schema, options, fuzz, depth);
    }
    default: throw new Error(`no generator for schema type ${schema.type}`);
  }
}

function objectOf(schema: Schema, options: GeneratorOptions, fuzz: boolean, depth: number): fc.Arbitrary<unknown> {
  const required: string[] = schema.required ?? [];
  const properties = Object.fromEntries(Object.entries<Schema>(schema.properties).map(([name, inner]) => {
    const values = arbitraryOf(inner, options, fuzz, depth + 1);
    const known = options.hint(name);
    return [name, known?.length ? fc.oneof(values, fc.constantFrom(...known)) : values];
  }));
  // Half the time every property is there: most bodies are partial, and a create needs most of them.
  const record = fc.oneof(fc.record(properties, { requiredKeys: required }), fc.record(properties));
  if (!fuzz) return record;
  return fc.tuple(record, fc.option(fc.constantFrom(...(required.length ? required : ['-'])), { freq: 4 }), fc.option(fc.tuple(oddString, hostile), { freq: 4 }))
    .map(([value, dropped, extra]) => {
      const out: Record<string, unknown> = { ...value };
      if (dropped) delete out[dropped];
      // defineProperty: "__proto__" becomes a real key, as JSON.parse makes it on the server.
      if (extra) Object.defineProperty(out, extra[0], { value: extra[1], enumerable: true, writable: true, configurable: true });
      return out;
    });
}
