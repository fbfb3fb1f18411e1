import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Context } from '../../context.js';
import { routeNotFound } from '../../errors/index.js';
import { handleError } from '../../http/errors.js';
import { named } from '../../http/plugin-name.js';

/** Where `npm run build` (vite, packages/console) writes the console: dist/admin at the project's root. */
export const CONSOLE_DIR = fileURLToPath(new URL('../../../dist/admin/', import.meta.url));

/**
 * The page may load only what this server sends: no CDN, font or analytics request leaves the origin.
 * Styles allow inline because Mantine writes its CSS variables and positions in style attributes and tags.
 */
const CONSOLE_CSP = [
  "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data: blob:",
  "font-src 'self'", "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
].join('; ');

function setConsoleHeaders(reply: FastifyReply, filePath: string): void {
  reply.header('content-security-policy', CONSOLE_CSP);
  reply.header('referrer-policy', 'same-origin');
  // Hashed file names change with their content; everything else (index.html, color-scheme.js) is checked each time.
  reply.header('cache-control', filePath.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
}

/**
 * The admin console at /admin: precompressed br/gzip files, and index.html for any other GET under /admin/
 * (the console's own routes), so a reload or a shared link opens the right screen. Without the build the
 * server still starts, says so in its log, and answers /admin with 503 and how to build it.
 */
export function consoleRoutes(ctx: Pick<Context, 'log'>, dir = CONSOLE_DIR): FastifyPluginAsync {
  return async (app) => {
    if (!existsSync(`${dir}index.html`)) {
      ctx.log.warn('the admin console is not built (run `npm run build`): /admin answers 503 until then');
      app.get('/admin*', { schema: { hide: true } }, (_request, reply) => reply.code(503).type('text/plain; charset=utf-8')
        .header('cache-control', 'no-store').send('The admin console is not built. Run `npm run build` and restart the server.\n'));
      return;
    }
    await app.register(named('console', async (scope) => {
      // One wildcard route that looks the file up on each request, rather than a route per built file (400 of them,
      // globbed and registered at every start).
      await scope.register(fastifyStatic, {
        root: dir, prefix: '/', wildcard: true, index: ['index.html'], preCompressed: true,
        cacheControl: false, dotfiles: 'deny', setHeaders: setConsoleHeaders,
      });
      scope.setNotFoundHandler((request, reply) => {
        if ((request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/admin/assets/')) {
          return reply.sendFile('index.html');
        }
        return handleError(routeNotFound(), request, reply);
      });
    }), { prefix: '/admin' });
  };
}
