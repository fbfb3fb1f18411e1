interface StoredCookie {
  value: string;
  path: string;
  httpOnly: boolean;
  sameSite: string | undefined;
  secure: boolean;
}

/**
 * A browser's cookie store, small: keeps what Set-Cookie answers say (name, path, deletion by
 * Max-Age=0 or a past Expires) and sends back what a request's path matches. Requests do not
 * follow redirects, so that each answer can be looked at.
 */
export class CookieJar {
  readonly cookies = new Map<string, StoredCookie>();

  constructor(readonly base: string) {}

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const attrs = new Map(attributes.map((a) => {
        const [k, ...v] = a.split('=');
        return [k.toLowerCase(), v.join('=')] as const;
      }));
      const maxAge = attrs.get('max-age');
      const expires = attrs.get('expires');
      const path = attrs.get('path') || '/';
      const key = `${name}|${path}`;
      if ((maxAge !== undefined && Number(maxAge) <= 0) || (expires && new Date(expires).getTime() < Date.now())) {
        this.cookies.delete(key);
        continue;
      }
      this.cookies.set(key, { value, path, httpOnly: attrs.has('httponly'), sameSite: attrs.get('samesite'), secure: attrs.has('secure') });
    }
  }

  /** The stored cookie of that name (any path), as the server set it. */
  get(name: string): StoredCookie | undefined {
    for (const [key, cookie] of this.cookies) if (key.split('|')[0] === name) return cookie;
    return undefined;
  }

  delete(name: string): void {
    for (const key of [...this.cookies.keys()]) if (key.split('|')[0] === name) this.cookies.delete(key);
  }

  header(path: string): string {
    const matches = (cookiePath: string) => path === cookiePath || path.startsWith(cookiePath.endsWith('/') ? cookiePath : `${cookiePath}/`);
    return [...this.cookies].filter(([, c]) => matches(c.path)).map(([key, c]) => `${key.split('|')[0]}=${c.value}`).join('; ');
  }

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const url = new URL(path, this.base);
    const cookie = this.header(url.pathname);
    const headers = new Headers(init.headers);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.store(response);
    return response;
  }

  /** Posts a form, url-encoded, as a browser would. */
  post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return this.fetch(path, {
      method: 'POST', body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  }
}

/** The value of a hidden (or any) input of a page, by name. */
export function inputValue(page: string, name: string): string | undefined {
  const tag = new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(page)?.[0];
  const value = tag && /value="([^"]*)"/.exec(tag)?.[1];
  return value?.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}
