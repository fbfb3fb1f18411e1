import type { Context } from '../context.js';

/**
 * Whatever ends a session or token, or changes a user or realm: the cached customer credentials
 * (`ctx.caches.of('customers')`) are dropped here and in every other server process. Liveness
 * (expiry) is still judged on every request against the clock.
 */
export function customersChanged(ctx: Context): void {
  ctx.caches.changed('customers');
}
