import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../context.js';
import { ref, useModels } from '../../http/models.js';
import { failures } from '../../http/responses.js';
import { typeSchema } from '../types/json-schema.js';
import { TypeParams } from '../schema.js';

export const TypeSchemaModel = Type.Object({
  title: Type.String({ description: 'The content type\'s name' }),
  type: Type.Literal('object'),
  properties: Type.Object({
    meta: Type.Object({}, { additionalProperties: true }),
    fields: Type.Object({}, { additionalProperties: true }),
  }, { additionalProperties: true }),
  required: Type.Array(Type.String()),
}, {
  $id: 'ContentTypeSchema', additionalProperties: true,
  description: 'A JSON Schema (draft 2020-12, with `$schema` and `$id`) of an entry `{meta, fields}` as the content API answers it without '
    + '`include`. Every field of the type is in `fields`; one that is not required may be null. text and rich_text (Markdown): string; '
    + 'integer: integer; decimal: number; boolean; date: string, a date (`2026-01-15`) or a date-time; dropdown: one of its options; '
    + 'checkbox: an array of its options; location: `{lat, lon}`; asset and entry: `{"uuid"}`; entries: an array of `{"uuid"}`.',
});

/** Content catalog: the JSON Schema of a content type's entries, public like the entries themselves. */
export function typeSchemaRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, TypeSchemaModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/spaces/:space_uid/types/:type_uid/schema', {
      schema: {
        tags: ['Content types'], summary: 'JSON Schema of a content type\'s entries',
        description: 'Turn it into TypeScript types with `npm run content:types -- <space> <type>`.',
        params: TypeParams, response: { 200: ref(TypeSchemaModel), ...failures(404) },
      },
    }, async (request) => typeSchema(ctx, request.params.space_uid, request.params.type_uid) as never);
  };
}
