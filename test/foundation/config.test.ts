import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { pageOf, metaOf } from '../../src/http/pagination.js';

describe('configuration from the environment', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000, host: '127.0.0.1', baseUrl: 'http://127.0.0.1:3000', databaseUrl: undefined, databasePoolSize: 10,
      mailFrom: 'Atrium <no-reply@localhost>', smtpUrl: undefined, logLevel: 'info',
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('refuses private outbound targets (WEBHOOKS_ALLOW_PRIVATE is the older name) and polls every second unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ outboundAllowPrivate: false, webhooksPollMs: 1000, webhookSenders: 2 });
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE: '1', WEBHOOKS_POLL_MS: '50', WEBHOOK_SENDERS: '0' })).toMatchObject({ outboundAllowPrivate: true, webhooksPollMs: 50, webhookSenders: 0 });
    expect(loadConfig({ WEBHOOKS_ALLOW_PRIVATE: '1' }).outboundAllowPrivate).toBe(true);
    expect(loadConfig({ WEBHOOKS_ALLOW_PRIVATE: '0' }).outboundAllowPrivate).toBe(false);
    // The new name, when set, decides.
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE: '0', WEBHOOKS_ALLOW_PRIVATE: '1' }).outboundAllowPrivate).toBe(false);
  });

  it('trusts no proxy by default, and takes TRUST_PROXY as Fastify\'s trustProxy', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback' }).trustProxy)
      .toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', 'loopback']);
  });

  it('derives the base address from HOST and PORT and trims a trailing slash of BASE_URL', () => {
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '8080' }).baseUrl).toBe('http://0.0.0.0:8080');
    expect(loadConfig({ HOST: '::1', PORT: '8080' }).baseUrl).toBe('http://[::1]:8080');
    expect(loadConfig({ BASE_URL: 'https://atrium.example.com/' }).baseUrl).toBe('https://atrium.example.com');
  });

  it.each([
    [{ PORT: 'http' }, /^PORT must be a whole number from 0 to 65535, got "http"$/],
    [{ PORT: '70000' }, /^PORT must be a whole number/],
    [{ PORT: '-1' }, /^PORT must be a whole number/],
    [{ DATABASE_URL: 'mysql://localhost/x' }, /^DATABASE_URL must look like postgres:/],
    [{ DATABASE_URL: 'not a url' }, /^DATABASE_URL must look like postgres:/],
    [{ BASE_URL: 'ftp://example.com' }, /^BASE_URL must be an absolute http\(s\) address/],
    [{ DATABASE_POOL_SIZE: '0' }, /^DATABASE_POOL_SIZE must be a whole number from 1/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of/],
    [{ SMTP_URL: 'mail.example.com' }, /^SMTP_URL must look like smtp:/],
    [{ TRUST_PROXY: 'yes' }, /^TRUST_PROXY must be true, false or a comma-separated list of the proxies' addresses or CIDR ranges, got "yes"$/],
    [{ TRUST_PROXY: '1' }, /^TRUST_PROXY must be/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /^TRUST_PROXY must be/],
    [{ TRUST_PROXY: '127.0.0.1,,10.0.0.1' }, /^TRUST_PROXY must be/],
    [{ SECRETS_KEY: 'c2hvcnQ=' }, /^SECRETS_KEY must be 32 random bytes in base64/],
    [{ SECRETS_KEY: `${'A'.repeat(43)}=!` }, /^SECRETS_KEY must be 32 random bytes/],
    [{ WEBHOOKS_ALLOW_PRIVATE: 'yes' }, /^WEBHOOKS_ALLOW_PRIVATE must be 1 or 0, got "yes"$/],
    [{ OUTBOUND_ALLOW_PRIVATE: 'yes' }, /^OUTBOUND_ALLOW_PRIVATE must be 1 or 0, got "yes"$/],
    [{ WEBHOOKS_POLL_MS: '5' }, /^WEBHOOKS_POLL_MS must be a whole number from 10 to 3600000/],
  ])('refuses %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('pagination', () => {
  it('falls back to the defaults and cuts per_page to the maximum', () => {
    expect(pageOf({})).toEqual({ page: 1, perPage: 10, offset: 0 });
    expect(pageOf({ page: '3', per_page: '20' })).toEqual({ page: 3, perPage: 20, offset: 40 });
    expect(pageOf({ page: '0', per_page: '-5' })).toEqual({ page: 1, perPage: 10, offset: 0 });
    expect(pageOf({ page: '2.5', per_page: '1e3' })).toEqual({ page: 1, perPage: 10, offset: 0 });
    expect(pageOf({ per_page: '500' })).toMatchObject({ perPage: 100 });
  });

  it('computes total_pages as total_entries / per_page rounded up', () => {
    expect(metaOf(0, pageOf({}))).toEqual({ total_entries: 0, per_page: 10, current_page: 1, total_pages: 0 });
    expect(metaOf(21, pageOf({ page: '2' }))).toEqual({ total_entries: 21, per_page: 10, current_page: 2, total_pages: 3 });
  });
});
