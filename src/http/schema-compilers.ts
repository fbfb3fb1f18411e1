import { createHash } from 'node:crypto';
import ValidatorSelector, { type ValidatorFactory } from '@fastify/ajv-compiler';
import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import type { ValidateFunction } from 'ajv';

/**
 * Fastify's own compilers (ajv for requests, fast-json-stringify for responses), changed in two ways:
 * - a route's schema is compiled on its first request rather than at start, so a server starts and rests without
 *   compiling the hundreds of schemas most of its life never uses (about 3 s of a start on this machine);
 * - a schema met again in this process (an app built anew: the tests, a second app on the same models) reuses what
 *   was compiled, keyed by its content and the catalog's models and options, so equal schemas share one function;
 * - a frozen answer, one a cache keeps (http/kept-answers.ts), is written once per serializer, not on every request.
 * Route header schemas are not lower-cased as Fastify does for its default compiler: no route declares one.
 */
const validators = ValidatorSelector();
const serializers = SerializerSelector();

export const sharedCompilers: { buildValidator: ValidatorFactory; buildSerializer: SerializerFactory } = {
  buildValidator: (externalSchemas, options) => {
    // Made on the first compile too: an Ajv instance with its formats and a scope's models costs tens of milliseconds,
    // and a server has one per catalog scope.
    let compileIn: ReturnType<typeof validators> | undefined;
    const reuse = reused('validator', externalSchemas, options);
    return (route) => reuse(route.schema, () => {
      let check: ValidateFunction | undefined;
      const checked = () => (check ??= (compileIn ??= validators(externalSchemas, options))(route) as ValidateFunction);
      const lazy = ((data: unknown) => {
        const valid = checked()(data);
        lazy.errors = checked().errors;
        return valid;
      }) as ValidateFunction;
      return Object.defineProperties(lazy, { schema: { get: () => checked().schema }, schemaEnv: { get: () => checked().schemaEnv } });
    });
  },
  buildSerializer: (externalSchemas, options) => {
    let compileIn: ReturnType<typeof serializers> | undefined;
    const reuse = reused('serializer', externalSchemas, options);
    return (route) => reuse(route.schema, () => {
      let serialize: ((doc: unknown) => string) | undefined;
      const compiled = (doc: unknown) => (serialize ??= (compileIn ??= serializers(externalSchemas, options))(route))(doc);
      // A frozen answer is a kept one (http/kept-answers.ts): its text is written once.
      const written = new WeakMap<object, string>();
      return (doc: unknown) => {
        if (doc === null || typeof doc !== 'object' || !Object.isFrozen(doc)) return compiled(doc);
        let text = written.get(doc);
        if (text === undefined) written.set(doc, text = compiled(doc));
        return text;
      };
    });
  },
};

const scopes = new Map<string, number>();
const made = new Map<string, unknown>();

/** The function made for an equal schema in the same models and options, or `make`'s, kept for the next one. */
function reused(kind: 'validator' | 'serializer', externalSchemas: unknown, options: unknown) {
  const models = kind + JSON.stringify(externalSchemas) + JSON.stringify(options ?? null);
  let scope = scopes.get(models);
  if (scope === undefined) scopes.set(models, (scope = scopes.size));
  return <T>(schema: unknown, make: () => T): T => {
    const key = `${scope}:${createHash('sha1').update(JSON.stringify(schema)).digest('base64')}`;
    if (!made.has(key)) made.set(key, make());
    return made.get(key) as T;
  };
}
