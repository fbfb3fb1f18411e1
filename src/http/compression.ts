import { constants } from 'node:zlib';
import type { FastifyInstance, RouteOptions } from 'fastify';
import compress from '@fastify/compress';
import { referencedModel } from './models.js';

/**
 * A catalog's answers above 1 KB are compressed for a client that accepts it (brotli at a fast level,
 * else gzip); small ones are not worth it. Never an answer that can carry a secret (BREACH: an attacker
 * who can put text beside a secret in a compressed answer learns the secret from its size): a route whose
 * success schema names a property like a token, secret, password, CSRF token or recovery code is left uncompressed
 * whole, decided from its schema at start-up. Only the catalogs compress: the HTML pages outside them
 * (realm sign-in, OAuth, sites) carry CSRF tokens in their forms.
 */
const SECRET_NAME = /token|secret|password|csrf|recovery_code/i;

function namesASecret(schema: unknown, seen = new Set<unknown>()): boolean {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return false;
  seen.add(schema);
  const node = schema as Record<string, unknown>;
  if (typeof node.$ref === 'string') return namesASecret(referencedModel(node.$ref), seen);
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  if (Object.keys(properties).some((name) => SECRET_NAME.test(name))) return true;
  return [...Object.values(properties), node.items, node.additionalProperties, ...[node.anyOf, node.oneOf, node.allOf].flatMap((list) => (Array.isArray(list) ? list : []))]
    .some((inner) => namesASecret(inner, seen));
}

/** Whether a route's successful answers can carry a secret (an undeclared answer is taken to). */
export function carriesSecret(route: Pick<RouteOptions, 'schema'>): boolean {
  const responses = (route.schema?.response ?? {}) as Record<string, unknown>;
  const success = Object.entries(responses).filter(([status]) => /^2/.test(status));
  return success.length === 0 ? false : success.some(([, schema]) => namesASecret(schema));
}

/** In a catalog's scope, before its routes. */
export async function compressAnswers(scope: FastifyInstance): Promise<void> {
  // Before the plugin's own onRoute hook, which reads `compress`.
  scope.addHook('onRoute', (route) => {
    if (carriesSecret(route)) route.compress = false;
  });
  await scope.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 5 },
  });
}
