import type { FastifyRequest } from 'fastify';
import { Type, type TSchema } from '@sinclair/typebox';
import { ref } from './models.js';
import { Meta, type MetaBody } from './pagination.js';

/**
 * Spec 9: some clients know the listings by their older names. A request with `X-Api-Naming: legacy`
 * gets `targets`, `targets_enabled`, `target_list` and the pagination root `goal` in place of
 * `segments`, `segments_enabled`, `segment_list` and `meta`: in the campaigns' listings and the
 * segments listing, each of which declares the header, so that the reference pages can send it.
 */
export const NamingHeaders = Type.Object({
  'x-api-naming': Type.Optional(Type.String({ description: '`legacy`: the listing\'s older names (`targets`, `targets_enabled`, `target_list`, `goal`)', examples: ['legacy'] })),
});

export const legacyNaming = (request: FastifyRequest) => String(request.headers['x-api-naming'] ?? '').trim().toLowerCase() === 'legacy';

const LEGACY: Record<string, string> = { segments: 'targets', segments_enabled: 'targets_enabled', segment_list: 'target_list' };

export function renamed<T extends object>(item: T, legacy: boolean): Record<string, unknown> {
  if (!legacy) return item as Record<string, unknown>;
  return Object.fromEntries(Object.entries(item).map(([key, value]) => [Object.hasOwn(LEGACY, key) ? LEGACY[key] : key, value]));
}

/**
 * `{<root>: items, meta}`, or `{<root>: items, goal}` under the legacy naming. Typed `never` so that it
 * fits the route's response type: the route's schema (a union of both shapes) serializes it.
 */
export function listed(root: string, items: object[], meta: MetaBody, legacy: boolean): never {
  const renamedItems = items.map((item) => renamed(item, legacy));
  return (legacy ? { [root]: renamedItems, goal: meta } : { [root]: renamedItems, meta }) as never;
}

/** A listing's two shapes: `{<root>: items, meta}`, or under the legacy naming `{<legacy root>: items, goal}`. */
export function namedListOf(root: string, item: TSchema, description: string, legacyRoot = root) {
  return Type.Union([
    Type.Object({ [root]: Type.Array(item), meta: ref(Meta) }),
    Type.Object({ [legacyRoot]: Type.Array(item), goal: ref(Meta) }, { description: 'With `X-Api-Naming: legacy`' }),
  ], { description });
}
