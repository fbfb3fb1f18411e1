/**
 * pg decides as it loads whether it runs on Cloudflare Workers, and where there is no `navigator` (Node 20) it does so by
 * making a Response: that loads Node's fetch implementation (undici, 3 MB of RSS once started) into a server that may
 * never fetch anything. `load` runs with Response hidden, and Node's own lazy global is put back before anything else
 * runs. Where Node has a navigator (21 and later), nothing is hidden.
 */
export async function loadWithoutFetch<T>(load: () => Promise<T>): Promise<T> {
  const response = typeof navigator === 'undefined' ? Object.getOwnPropertyDescriptor(globalThis, 'Response') : undefined;
  if (response) Object.defineProperty(globalThis, 'Response', { value: undefined, configurable: true, writable: true });
  try {
    return await load();
  } finally {
    if (response) Object.defineProperty(globalThis, 'Response', response);
  }
}
