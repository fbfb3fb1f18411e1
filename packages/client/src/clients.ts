import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { errorOf } from './errors.js';
import type { paths as AdminPaths } from './generated/admin.js';
import type { paths as ContentPaths } from './generated/content.js';
import type { paths as CustomersPaths } from './generated/customers.js';
import type { paths as ProfilePaths } from './generated/profile.js';

export interface ClientOptions {
  /** Where Atrium answers, e.g. `https://atrium.example.com`. */
  baseUrl: string;
  /** A bearer token: an admin API token, a realm user's access token, or a content delivery token. */
  token?: string;
  /** A fetch of your own (a cookie-aware one, a test double...). */
  fetch?: typeof globalThis.fetch;
}

export type AdminClient = Client<AdminPaths>;
export type CustomersClient = Client<CustomersPaths>;
export type ContentClient = Client<ContentPaths>;
export type ProfileClient = Client<ProfilePaths>;

/** Turns every answer of 400 or above into the catalog's typed error, so a call that resolves has its data. */
const throwing = (customers: boolean): Middleware => ({
  async onResponse({ response }) {
    if (response.status >= 400) throw await errorOf(response, customers);
    return undefined;
  },
});

function make<Paths extends {}>(prefix: string, options: ClientOptions, customers = false): Client<Paths> {
  const client = createClient<Paths>({
    baseUrl: `${options.baseUrl.replace(/\/+$/, '')}${prefix}`,
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  client.use(throwing(customers));
  return client;
}

/** The admin API (`/api/admin`), with an admin API access token, or without one in a browser signed in with the session cookie. */
export const createAdminClient = (options: ClientOptions): AdminClient => make('/api/admin', options);

/** The customers API of one realm (`/api/customers/realms/{realm}`), with a realm user's access token. */
export const createCustomersClient = (options: ClientOptions & { realm: string }): CustomersClient =>
  make(`/api/customers/realms/${encodeURIComponent(options.realm)}`, options, true);

/** The content delivery API (`/api/content`); a delivery token opens private entries. */
export const createContentClient = (options: ClientOptions): ContentClient => make('/api/content', options);

/** The profile API (`/api/profile`), with a realm user's access token. */
export const createProfileClient = (options: ClientOptions & { token: string }): ProfileClient => make('/api/profile', options);
