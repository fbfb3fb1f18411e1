import type * as JsonPathPlus from 'jsonpath-plus';
import { lazyRequire } from '../../shared/lazy-require.js';

/** jsonpath-plus, loaded with the first `fields=` path: a server asked none never holds it. */
const jsonPathPlus = lazyRequire<typeof JsonPathPlus>('jsonpath-plus');

/**
 * `fields=<JSONPath>`: each delivered entry keeps only what the path selects, at the place it had.
 * jsonpath-plus runs with `eval: false`, so filter and script expressions (`?()`, `()`) are refused,
 * never run. Its cache of parsed paths is a plain object shared by the process and never emptied:
 * it is replaced by a prototype-less one before each use, so that a path named `constructor` or
 * `__proto__` reads nothing inherited and a stream of distinct paths cannot grow it without end.
 */

const MAX_PATH = 500;

/** Why a path is refused, or null. Beyond the library's own parsing: it starts at the root and its brackets and quotes close. */
export function checkJsonPath(path: string): string | null {
  if (!path.startsWith('$') || path.length > MAX_PATH) return `Invalid JSONPath: it must start with $ and have at most ${MAX_PATH} characters`;
  let depth = 0;
  let quote: string | null = null;
  for (const c of path) {
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '[') depth++;
    else if (c === ']' && --depth < 0) break;
  }
  if (depth !== 0 || quote) return 'Invalid JSONPath: a bracket or quote is not closed';
  try {
    pointersOf(path, { meta: {}, fields: {} });
  } catch (err) {
    return `Invalid JSONPath: ${(err as Error).message}`;
  }
  return null;
}

function pointersOf(path: string, json: object): string[] {
  const { JSONPath } = jsonPathPlus();
  (JSONPath as unknown as { cache: Record<string, unknown> }).cache = Object.create(null);
  const found = JSONPath({ path, json, resultType: 'pointer', eval: false, wrap: true }) as unknown;
  return Array.isArray(found) ? found.filter((p): p is string => typeof p === 'string') : [];
}

type Trie = Map<string, Trie> | true;

const unescape = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** What `path` selects of `entry`, each part where it was; arrays keep the selected elements in order. */
export function trimEntry(entry: object, path: string): object {
  const root: Map<string, Trie> = new Map();
  for (const pointer of pointersOf(path, entry)) {
    if (pointer === '') return entry;
    let node: Map<string, Trie> = root;
    const segments = pointer.slice(1).split('/').map(unescape);
    for (const [i, segment] of segments.entries()) {
      const next = node.get(segment);
      if (next === true) break;
      if (i === segments.length - 1) {
        node.set(segment, true);
      } else {
        const child = next ?? new Map<string, Trie>();
        node.set(segment, child);
        node = child;
      }
    }
  }
  return pick(entry, root) as object;
}

function pick(value: unknown, trie: Trie): unknown {
  if (trie === true || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    return [...trie.keys()].map(Number).filter((i) => Number.isInteger(i) && i < value.length).sort((a, b) => a - b)
      .map((i) => pick(value[i], trie.get(String(i))!));
  }
  // Without a prototype, a key `__proto__` (a field may be named so) is a property like any other.
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, child] of trie) {
    if (Object.hasOwn(value, key)) out[key] = pick((value as Record<string, unknown>)[key], child);
  }
  return out;
}
