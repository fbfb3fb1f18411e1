import type { FastifyPluginAsync, FastifyPluginOptions } from 'fastify';

const DISPLAY_NAME = Symbol.for('fastify.display-name');

/**
 * Gives one of our plugins its name for Fastify. Without it, each registration of an unnamed plugin looks for it among
 * the exports of every loaded CommonJS module (require.cache), then prints the function's source as its name: a
 * noticeable part of building an app (the tests build hundreds).
 */
export function named<Options extends FastifyPluginOptions>(name: string, plugin: FastifyPluginAsync<Options>): FastifyPluginAsync<Options> {
  (plugin as unknown as Record<symbol, string>)[DISPLAY_NAME] = name;
  return plugin;
}
