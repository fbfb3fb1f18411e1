import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface EmbeddedAssets {
  pgliteWasmModule: WebAssembly.Module;
  fsBundle: Blob;
}

let assets: Promise<EmbeddedAssets> | null = null;

/**
 * PGlite's WebAssembly module and file bundle, compiled and read once per process (PGlite would do it
 * on every open): each in-memory database a test file opens then starts about a second sooner.
 */
export function embeddedAssets(): Promise<EmbeddedAssets> {
  assets ??= (async () => {
    const dist = path.dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
    const [wasm, bundle] = await Promise.all([
      fs.promises.readFile(path.join(dist, 'pglite.wasm')),
      fs.promises.readFile(path.join(dist, 'pglite.data')),
    ]);
    return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([bundle]) };
  })();
  return assets;
}
