import cluster from 'node:cluster';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.js';
import { DatabaseUnavailable } from './db/errors.js';
import { startSeedCopy } from './db/seed-copy.js';
import { loadWithoutFetch } from './shared/load-without-fetch.js';
import { telemetry } from './telemetry/hooks.js';

// The server's modules (server.js and what it imports) load once a command needs them, without Node's fetch
// implementation: `serve` first starts the copy of the embedded database's seed, which then runs while they load.
const serverModule = () => loadWithoutFetch(() => import('./server.js'));

const HELP = `Usage: atrium <command>

Commands:
  serve              apply migrations, then serve (on an empty database, create the owner and print its credentials once)
  migrate            apply migrations and exit
  bootstrap --json   ensure the account and owner exist, create an API access application and an access token
                     for the owner, print them as one JSON object and exit
  --help             show this text

Configuration comes from the environment: PORT, HOST, BASE_URL, DATABASE_URL, DATABASE_POOL_SIZE, DATA_DIR,
SMTP_URL, MAIL_FROM, ATRIUM_ADMIN_EMAIL, ATRIUM_ADMIN_PASSWORD, LOG_LEVEL, BODY_LIMIT, TRUST_PROXY, SECRETS_KEY,
METRICS_TOKEN or METRICS_PUBLIC (GET /metrics), OTEL_EXPORTER_OTLP_ENDPOINT (traces), STORAGE_URL (uploads in an
S3-compatible bucket: s3://bucket?endpoint=...), WORKERS (server processes sharing the port: a number or auto; above 1
needs DATABASE_URL) (see docs/operations.md).
TRUST_PROXY (default false) says whose X-Forwarded-Host/-Proto/-For headers are believed: true (any peer), or the
proxies' addresses and CIDR ranges separated by commas (e.g. 127.0.0.1,10.0.0.0/8); set it only behind a proxy
that overwrites those headers.
SECRETS_KEY (32 random bytes in base64: openssl rand -base64 32) encrypts the secrets stored to be read back (a
realm's Zendesk shared secret). Required with DATABASE_URL, the same in every server process; with the embedded
database it defaults to DATA_DIR/secrets.key, made on first use. Losing it loses those secrets (set them again).
`;

/** Runs one command; resolves to the exit code, or never for `serve`, which runs until a signal. */
export async function main(args: string[], env = process.env): Promise<number | undefined> {
  const { values, positionals } = parseArgs({
    args, allowPositionals: true, strict: false,
    options: { help: { type: 'boolean', short: 'h' }, json: { type: 'boolean' } },
  });
  const command = positionals[0];
  if (values.help || command === 'help' || !command) {
    process.stdout.write(HELP);
    return command || values.help ? 0 : 1;
  }
  try {
    const config = loadConfig(env);
    switch (command) {
      case 'serve': {
        if (config.workers > 1 && cluster.isPrimary) return await (await loadWithoutFetch(() => import('./cluster.js'))).serveWorkers(config);
        if (!config.databaseUrl) startSeedCopy(config.dataDir);
        const { serve } = await serverModule();
        // The handlers come first: the address is printed before the background workers start, and a signal
        // in between would otherwise end the process at once, with requests in flight.
        const starting = serve(config, env);
        for (const signal of ['SIGTERM', 'SIGINT'] as const) {
          process.once(signal, () => {
            // The spans still buffered are sent before the process ends.
            starting.then((server) => server.close()).then(() => telemetry.shutdown?.().catch(() => {}))
              .then(() => process.exit(0), () => process.exit(1));
          });
        }
        await starting;
        return undefined;
      }
      case 'migrate': {
        const { openMigrated } = await serverModule();
        const database = await openMigrated(config);
        await database.close();
        process.stdout.write('Migrations applied.\n');
        return 0;
      }
      case 'bootstrap': {
        if (!values.json) {
          process.stderr.write('atrium: bootstrap prints JSON only; run `atrium bootstrap --json`\n');
          return 2;
        }
        const [{ createContext, createLogger, openMigrated }, { ensureOwner, issueOwnerToken }] = await Promise.all([serverModule(), import('./bootstrap.js')]);
        const database = await openMigrated(config);
        try {
          const ctx = createContext(config, database, createLogger({ ...config, logLevel: 'silent' }));
          const credentials = await issueOwnerToken(ctx, await ensureOwner(ctx));
          process.stdout.write(`${JSON.stringify({
            admin: credentials.admin,
            ...(credentials.password ? { password: credentials.password } : {}),
            application: { id: credentials.application.id, uid: credentials.application.uid, secret: credentials.application.secret },
            access_token: credentials.token.token,
          })}\n`);
        } finally {
          await database.close();
        }
        return 0;
      }
      default:
        process.stderr.write(`atrium: unknown command "${command}"\n${HELP}`);
        return 2;
    }
  } catch (err) {
    if (err instanceof ConfigError || err instanceof DatabaseUnavailable) {
      process.stderr.write(`atrium: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
