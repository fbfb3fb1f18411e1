import { Type } from '@sinclair/typebox';

/** The `only` query parameters of an admin list (facts page: `only[]=id&only[]=name` trims each item). */
export const OnlyQuery = {
  only: Type.Optional(Type.Array(Type.String(), { description: 'Attributes each item keeps: `only=id,name` or `only=id&only=name`' })),
  'only[]': Type.Optional(Type.Array(Type.String(), { description: 'The same as `only`, Rails style: `only[]=id&only[]=name`' })),
};

/**
 * `only=id,name`, `only=id&only=name` or `only[]=id&only[]=name`: the attributes each item keeps
 * (null: all). Names are matched as own properties, so `__proto__` keeps nothing.
 */
export function onlyOf(query: { only?: string[]; 'only[]'?: string[] }): string[] | null {
  const names = [...(query.only ?? []), ...(query['only[]'] ?? [])].flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  return names.length ? names : null;
}

export function trimmed<T extends object>(item: T, only: string[] | null): Partial<T> {
  if (!only) return item;
  return Object.fromEntries(only.filter((key) => Object.hasOwn(item, key)).map((key) => [key, (item as Record<string, unknown>)[key]])) as Partial<T>;
}
