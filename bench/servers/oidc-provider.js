// node-oidc-provider doing the same authorization_code exchange (with PKCE) as Atrium's token endpoint: with its
// models in PostgreSQL through a minimal adapter (OIDC_DATABASE_URL), so both sides pay for a real database, or in
// this process's memory (no OIDC_DATABASE_URL: a Map per model, as its own in-memory adapter without the LRU's
// eviction). OIDC_SCOPE is the codes' scope (default `public`; `openid offline_access` gives ID and refresh tokens).
// On IPC {issue: n} it creates n authorization codes through its own models and sends them back.
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import Provider from 'oidc-provider';

const pool = process.env.OIDC_DATABASE_URL ? new pg.Pool({ connectionString: process.env.OIDC_DATABASE_URL, max: 10 }) : null;
await pool?.query(`create table if not exists oidc_models (
  id text not null, type text not null, payload jsonb not null, grant_id text, uid text,
  consumed_at timestamptz, expires_at timestamptz, primary key (id, type))`);
await pool?.query('create index if not exists oidc_models_grant on oidc_models (grant_id)');
const SCOPE = process.env.OIDC_SCOPE ?? 'public';

const memory = new Map();
class MemoryAdapter {
  constructor(type) { this.type = type; }
  key(id) { return `${this.type}:${id}`; }
  async upsert(id, payload) { memory.set(this.key(id), payload); }
  async find(id) { return memory.get(this.key(id)); }
  async findByUid() { return undefined; }
  async findByUserCode() { return undefined; }
  async consume(id) { const found = memory.get(this.key(id)); if (found) found.consumed = Math.floor(Date.now() / 1000); }
  async destroy(id) { memory.delete(this.key(id)); }
  async revokeByGrantId(grantId) { for (const [key, value] of memory) if (value.grantId === grantId) memory.delete(key); }
}

class PgAdapter {
  constructor(type) { this.type = type; }
  async upsert(id, payload, expiresIn) {
    await pool.query(`insert into oidc_models (id, type, payload, grant_id, uid, expires_at)
      values ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))
      on conflict (id, type) do update set payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid, expires_at = excluded.expires_at`,
    [id, this.type, payload, payload.grantId ?? null, payload.uid ?? null, expiresIn ?? 3600]);
  }
  async #one(where, value) {
    const { rows } = await pool.query(`select payload, consumed_at from oidc_models where ${where} = $1 and type = $2 and (expires_at is null or expires_at > now())`, [value, this.type]);
    if (!rows[0]) return undefined;
    return { ...rows[0].payload, ...(rows[0].consumed_at ? { consumed: true } : {}) };
  }
  find(id) { return this.#one('id', id); }
  findByUid(uid) { return this.#one('uid', uid); }
  findByUserCode() { return undefined; }
  async consume(id) { await pool.query('update oidc_models set consumed_at = now() where id = $1 and type = $2', [id, this.type]); }
  async destroy(id) { await pool.query('delete from oidc_models where id = $1 and type = $2', [id, this.type]); }
  async revokeByGrantId(grantId) { await pool.query('delete from oidc_models where grant_id = $1', [grantId]); }
}

const REDIRECT = 'https://app.example/callback';
const client = { client_id: 'bench', client_secret: 'bench-secret-bench-secret-bench-secret', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_post' };

const provider = new Provider('http://127.0.0.1', {
  adapter: pool ? PgAdapter : MemoryAdapter,
  clients: [client],
  scopes: ['openid', 'public', 'offline_access'],
  pkce: { required: () => true },
  findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
  features: { devInteractions: { enabled: false } },
  // Every refresh rotates, as Atrium's do (by default it rotates only a public client's tokens, or one near its end).
  rotateRefreshToken: () => true,
});
provider.on('server_error', (_ctx, err) => console.error(err));

const server = provider.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));

async function issue(n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const accountId = `user-${i % 20}`;
    const grant = new provider.Grant({ accountId, clientId: client.client_id });
    grant.addOIDCScope(SCOPE);
    const grantId = await grant.save();
    const verifier = randomBytes(32).toString('base64url');
    const code = new provider.AuthorizationCode({
      accountId, grantId, client: await provider.Client.find(client.client_id), redirectUri: REDIRECT, scope: SCOPE,
      codeChallenge: createHash('sha256').update(verifier).digest('base64url'), codeChallengeMethod: 'S256',
      authTime: Math.floor(Date.now() / 1000),
    });
    out.push({ code: await code.save(), verifier });
  }
  return out;
}

process.on('message', async (message) => {
  if (message.issue) process.send({ codes: await issue(message.issue) });
});
process.send({ url: `http://127.0.0.1:${server.address().port}`, client_id: client.client_id, client_secret: client.client_secret, redirect_uri: REDIRECT });
process.on('SIGTERM', () => { server.close(); (pool ? pool.end() : Promise.resolve()).then(() => process.exit(0)); });
