import { Type, type IntegerOptions, type Static, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';

/** The range of PostgreSQL's `integer` columns, which hold every id and counted setting (`finite`: see http/finite.ts). */
export const INT32_MAX = 2147483647;
const INT32 = { minimum: -INT32_MAX - 1, maximum: INT32_MAX, finite: true };

/** A record's id: beyond the column's range no record can have it, so the schema refuses it (422). */
export const Id = (options: IntegerOptions = {}) => Type.Integer({ ...INT32, minimum: 1, ...options });

/** An integer stored in a 32-bit column; `options` may narrow the range further. */
export const Int32 = (options: IntegerOptions = {}) => Type.Integer({ ...INT32, ...options });

/**
 * A value or null. A schema of one primitive type becomes a list of types (`type: ['integer', 'null']`), not an `anyOf`:
 * with coercion on, Ajv turns a null into 0 or "" under an `anyOf` whose first branch is the value's type, while with a
 * list it coerces only a value that matches none of the types. Other schemas (objects, references, unions) cannot be
 * coerced from null and stay an `anyOf`.
 */
const PRIMITIVE = new Set(['string', 'integer', 'number', 'boolean']);
export function Nullable<T extends TSchema>(schema: T, description?: string) {
  const described = description ? { description } : {};
  if (typeof schema.type === 'string' && PRIMITIVE.has(schema.type)) return Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'], ...described });
  return Type.Union([schema, Type.Null()], described);
}

/** Every timestamp: ISO 8601 with an offset. */
export const DateTime = Type.String({ format: 'date-time' });

/**
 * A reference to a named model. The model is registered once per catalog (see `useModels`), which
 * makes it appear in the reference page's Models section; validation and serialization resolve the
 * same reference, so the documented shape is the enforced one.
 */
const referenced = new Map<string, TSchema>();

export function ref<T extends TSchema>(model: T) {
  if (!model.$id) throw new Error('ref() needs a model with an $id');
  referenced.set(`${model.$id}#`, model);
  return Type.Unsafe<Static<T>>({ $ref: `${model.$id}#` });
}

/** The model a `$ref` made by `ref()` names, for a reader of route schemas (http/compression.ts). */
export const referencedModel = (reference: string): TSchema | undefined => referenced.get(reference);

/** Registers models in a catalog's scope; a model several route modules use is registered once. */
export function useModels(scope: FastifyInstance, ...models: TSchema[]): void {
  for (const model of models) {
    if (!scope.getSchema(model.$id!)) scope.addSchema(model);
  }
}
