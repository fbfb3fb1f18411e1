import { createAdminClient, type AdminPaths } from '@atrium/client';
import createQueryHooks from 'openapi-react-query';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The CSRF token of the session: kept in memory only, never in storage a script could read later. */
let csrfToken: string | null = null;
export const setCsrfToken = (token: string | null) => { csrfToken = token; };

type Listener = () => void;
const sessionEndListeners = new Set<Listener>();
/** Called when the server answers 401 to a signed-in request: the session expired or was ended elsewhere. */
export function onSessionEnd(listener: Listener): () => void {
  sessionEndListeners.add(listener);
  return () => sessionEndListeners.delete(listener);
}

/** The admin API over the session cookie; answers of 400 and above reject with the client's typed AtriumError. */
export const admin = createAdminClient({ baseUrl: window.location.origin });
admin.use({
  onRequest({ request }) {
    if (csrfToken && UNSAFE.has(request.method)) request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
  // Runs before the client's own middleware turns the answer into an AtriumError (response middlewares run last-added first).
  onResponse({ response }) {
    if (response.status === 401) for (const listener of sessionEndListeners) listener();
    return undefined;
  },
});

/** TanStack Query hooks typed by the admin catalog: `api.useQuery('get', '/realms', {params})`. */
export const api = createQueryHooks<AdminPaths>(admin);
