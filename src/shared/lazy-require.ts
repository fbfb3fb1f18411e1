import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A CommonJS package, loaded on the first call. */
export interface LazyModule<T> {
  (): T;
  /** The package if a call loaded it already; undefined otherwise, without loading it (an error of its cannot exist yet). */
  ifLoaded(): T | undefined;
}

/**
 * A CommonJS package loaded synchronously on the first call, then kept: what a server may never use (a template
 * engine, mail encoders, a JSONPath parser) costs no memory until it does.
 */
export function lazyRequire<T>(specifier: string): LazyModule<T> {
  let loaded: T | undefined;
  return Object.assign(() => (loaded ??= require(specifier) as T), { ifLoaded: () => loaded });
}
