import fc from 'fast-check';
import { expect } from 'vitest';
import { inputValue } from '../helpers/cookie-jar.js';
import { authorizePath, REDIRECT } from '../oauth/fixtures.js';
import type { Schema } from './arbitrary.js';
import { operationsOf, problemWith, requestsFor, type Credential, type FuzzRequest, type Operation } from './operations.js';
import type { FuzzTarget, TargetAnswer } from './target.js';

const CATALOGS = ['admin', 'content', 'profile', 'customers'];
const USER_PASSWORD = 'a long secret 1';
const BUILT_IN_ROLE_KEYS = ['account_owner', 'account_admin', 'realm_admin', 'realm_user_manager'];
const CONTENT_FIELDS = [{ name: 'title', type: 'text', required: true }, { name: 'section', type: 'dropdown', options: ['news'] }];
const SAMPLE_FILTERS = [
  { all: [{ attribute: 'email', operator: 'contains', value: 'a' }, { attribute: 'events.user_login_log.count', operator: 'gte', value: 1, within_last_days: 7 }] },
  { any: [{ not: { attribute: 'custom_fields.field_1', operator: 'is_set' } }, { attribute: 'random_bucket', operator: 'between', value: [0, 49] }] },
  { attribute: 'created_at', operator: 'within_last_days', value: 30 },
];
const ORIGINATION = {
  name: 'Fuzz loan', deadline_days: 10, steps: [
    { name: 'Form', tasks: [{ name: 'About you', type: 'input', questions: [{ label: 'Name', type: 'text' }] }] },
    { name: 'Review', tasks: [{ name: 'Check', type: 'pending_review', content: 'Checking' }, { name: 'Sign', type: 'confirmation' }] },
  ],
};

/** The state fuzzed requests reach into; made again from time to time, since fuzzed DELETEs remove it. */
interface World {
  realms: string[];
  /** Known values by collection, or by `collection.parameter` where one collection is named two ways (ids and uuids). */
  ids: Record<string, unknown[]>;
  fieldKeys: string[];
  /** The questions of the latest origination's form. */
  questionIds: number[];
  session?: string;
  oauthToken?: string;
  /** The realm the customer credentials belong to. */
  customerRealm?: string;
}

export interface FuzzOptions {
  seed: number;
  /** Requests per operation in a round. */
  runs: number;
  /** With a time (ms since the epoch): rounds after the first, each with its own seed, until then; the first too ends then. */
  until?: number;
}

export interface FuzzResult {
  /** Operations of the four catalogs. */
  operations: number;
  /** Operations fuzzed (one request at least). */
  fuzzed: number;
  /** Operations that answered a 2xx at least once. */
  answered: number;
  sent: number;
  rounds: number;
  statuses: Map<number, number>;
  /** One line and an example per operation and kind of problem, with how often it happened. */
  problems: string[];
  seconds: number;
}

/** Round `round` fuzzes operation `index` with this seed: round 0 with `seed + index`, as `FUZZ_SEED=seed` replays. */
const seedOf = (seed: number, round: number, index: number) => seed + round * 1000 + index;

/**
 * Fuzzes every operation of the four catalogs against a target with `runs` requests each, from a world of realms, users,
 * clients, content and the rest made first and again every 120 requests; answers what it sent and every problem found.
 */
export async function fuzzCatalogs(target: FuzzTarget, options: FuzzOptions): Promise<FuzzResult> {
  const started = Date.now();
  let ownerToken = target.ownerToken;
  const world: World = { realms: [], ids: {}, fieldKeys: [], questionIds: [] };

  const admin = (method: string, url: string, payload?: unknown) => target.request({
    method, url: `/api/admin${url}`, payload: payload === undefined ? undefined : JSON.stringify(payload),
    headers: { authorization: `Bearer ${ownerToken}`, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
  });
  const remember = (collection: string, id: number | string | undefined) => {
    if (typeof id === 'number' || typeof id === 'string') (world.ids[collection] ??= []).push(id);
  };

  /** A realm with a user, a custom field and an OAuth client; a team member with an application and a token; the user signed in. */
  async function populate(): Promise<void> {
    await keepOwnerToken();
    const n = world.realms.length + 1;
    const realm = { uid: `fuzz-realm-${n}` };
    expect((await admin('POST', '/realms', { uid: realm.uid, name: `Fuzz ${n}` })).statusCode).toBe(201);
    world.realms.push(realm.uid);
    const key = `field_${n}`;
    remember('custom_fields', (await admin('POST', `/customers/${realm.uid}/custom_fields`, { key, name: 'Field', type: 'text', visible: true, editable: true })).json().id);
    world.fieldKeys.push(key);
    const user = (await admin('POST', `/customers/${realm.uid}/users`, { email: `user-${n}@example.com`, password: USER_PASSWORD })).json();
    remember('users', user.id);
    remember('notifications', (await admin('POST', `/customers/${realm.uid}/users/${user.id}/notifications`, { subject: 'Fuzz' })).json().id);
    const client = (await admin('POST', `/customers/${realm.uid}/oauth_clients`, { name: 'Fuzz', redirect_uris: [REDIRECT] })).json();
    remember('oauth_clients', client.id);
    const member = (await admin('POST', '/team_members', { email: `member-${n}@example.com`, password: USER_PASSWORD })).json();
    remember('team_members', member.id);
    remember('team_members', target.ownerId);
    const application = (await admin('POST', '/api_access/applications', { name: 'Fuzz' })).json();
    remember('applications', application.id);
    remember('access_tokens', (await admin('POST', `/team_members/${member.id}/access_tokens`, { application_id: application.id })).json().id);
    remember('roles', (await admin('GET', '/roles?per_page=3')).json().roles?.[0]?.id);
    await admin('PUT', `/customers/${realm.uid}/integrations/zendesk`, { subdomain: 'fuzz', key_id: 'fuzz_key', shared_secret: USER_PASSWORD });
    remember('segments', (await admin('POST', '/segments', { name: 'Fuzz', realm_uid: realm.uid, filters: SAMPLE_FILTERS[0] })).json().id);
    await populateOriginations(realm.uid, user.id);
    await populateContent(n);
    await populateForms(realm.uid, n);
    const campaign = (await admin('POST', '/messaging/campaigns', { realm_uid: realm.uid, name: 'Fuzz', type: 'mailing', subject: 'Hi {{ user.first_name }}', body: 'Body' })).json();
    remember('campaigns', campaign.id);
    remember('deliveries', (await admin('POST', `/messaging/campaigns/${campaign.id}/deliveries`, { starts_at: '2100-01-01T00:00:00Z' })).json().id);
    world.session = await signInThroughPage(realm.uid, user.email);
    world.customerRealm = realm.uid;
    // A second session of the user, for the profile's DELETE /sessions/{id} to end instead of the one the fuzzer uses.
    const spare = await signInThroughPage(realm.uid, user.email);
    if (spare) {
      const listed = await target.request({ method: 'GET', url: '/api/profile/sessions', headers: { cookie: spare } });
      remember('sessions', listed.json().sessions?.find((s: { current: boolean }) => s.current)?.id);
    }
    if (world.session) {
      // An attachment of the user: its uuid is the path parameter of the customers and admin file routes.
      const uuid = await uploadAttachment(realm.uid, world.session);
      remember('answer', uuid);
      remember('attachments', uuid);
    }
    world.oauthToken = undefined;
    if (world.session) {
      world.oauthToken = await accessToken(realm.uid, client, world.session);
    }
  }

  /** An origination with a form and a review, a reviewer group of the owner, and a started submission of the user. */
  async function populateOriginations(realmUid: string, userId: number): Promise<void> {
    const origination = (await admin('POST', `/customers/${realmUid}/originations`, ORIGINATION)).json();
    remember('originations', origination.id);
    for (const task of origination.steps?.flatMap((step: { tasks: unknown[] }) => step.tasks) ?? []) remember('tasks', task.uid);
    world.questionIds = origination.steps?.[0]?.tasks?.[0]?.questions?.map((q: { id: number }) => q.id) ?? [];
    remember('groups', (await admin('POST', `/customers/${realmUid}/groups`, { name: `Fuzz group ${world.realms.length}`, member_ids: [target.ownerId] })).json().id);
    const submission = (await admin('POST', `/customers/${realmUid}/originations/${origination.id}/submissions`, { user_id: userId })).json();
    remember('submissions', submission.id);
    remember('submissions.uuid', submission.uuid);
  }

  /** A content space with a type of a few fields, a published entry and an asset: the path parameters of the content routes. */
  async function populateContent(n: number): Promise<void> {
    const space = `fuzz-space-${n}`;
    if ((await admin('POST', '/content/spaces', { uid: space, name: 'Fuzz', default_locale: 'en', locales: ['es'] })).statusCode === 201) remember('spaces', space);
    if ((await admin('POST', `/content/spaces/${space}/types`, { uid: 'fuzz-type', name: 'Fuzz', fields: CONTENT_FIELDS })).statusCode === 201) remember('types', 'fuzz-type');
    const entry = (await admin('POST', `/content/spaces/${space}/types/fuzz-type/entries`, { name: 'Fuzz entry', fields: { title: 'Fuzz' } })).json();
    remember('entries', entry.meta?.uuid);
    await admin('POST', `/content/spaces/${space}/types/fuzz-type/entries/${entry.meta?.uuid}/publish`, {});
    const boundary = 'fuzzasset';
    const asset = await target.request({
      method: 'POST', url: `/api/admin/content/spaces/${space}/assets`,
      headers: { authorization: `Bearer ${ownerToken}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\n\r\nplain notes\n\r\n--${boundary}--\r\n`),
    });
    remember('assets', asset.json().uuid);
    remember('asset_files', asset.json().file_name);
  }

  /** A public form with a response and a form of the realm's users: the path parameters of the forms routes. */
  async function populateForms(realmUid: string, n: number): Promise<void> {
    const fields = [{ name: 'email', type: 'email', labels: { en: 'Email' } }, { name: 'note', type: 'text', labels: { en: 'Note' } }];
    const spam = { min_fill_seconds: 0, rate_limit_per_hour: 0 };
    const open = (await admin('POST', '/forms', { uid: `fuzz-form-${n}`, name: 'Fuzz', fields, spam })).json();
    remember('forms', open.uid);
    const members = (await admin('POST', '/forms', { uid: `fuzz-members-${n}`, name: 'Fuzz', fields, spam, realm_uid: realmUid, access: 'realm_users' })).json();
    remember('forms', members.uid);
    const definition = await target.request({ method: 'GET', url: `/api/content/forms/${open.uid}` });
    await target.request({
      method: 'POST', url: `/api/content/forms/${open.uid}/responses`, headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ token: definition.json().token, answers: { email: 'fuzz@example.com' } }),
    });
    const listed = await admin('GET', `/forms/${open.uid}/responses`);
    remember('responses', listed.json().responses?.[0]?.id);
  }

  /** An access token of the signed-in user through the authorize and token endpoints, or undefined. */
  async function accessToken(realmUid: string, client: { uid: string; secret: string }, session: string): Promise<string | undefined> {
    const authorize = await target.request({
      method: 'GET', url: authorizePath(realmUid, { response_type: 'code', client_id: client.uid, redirect_uri: REDIRECT }), headers: { cookie: session },
    });
    const location = authorize.headers.location;
    const code = typeof location === 'string' ? new URL(location, 'http://x').searchParams.get('code') : null;
    if (!code) return undefined;
    const token = await target.request({
      method: 'POST', url: `/realms/${realmUid}/oauth/token`, headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.uid, client_secret: client.secret }).toString(),
    });
    return token.statusCode === 200 ? token.json().access_token : undefined;
  }

  /** The realm session cookie, got the way a browser gets it: the login page, then its form. */
  async function signInThroughPage(realmUid: string, email: string): Promise<string | undefined> {
    const page = await target.request({ method: 'GET', url: `/realms/${realmUid}/login` });
    const csrf = page.cookies.find((c) => c.name === 'atrium_csrf')?.value;
    const res = await target.request({
      method: 'POST', url: `/realms/${realmUid}/login`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `atrium_csrf=${csrf}` },
      payload: new URLSearchParams({ username: email, password: USER_PASSWORD, csrf_token: inputValue(page.body, 'csrf_token') ?? '' }).toString(),
    });
    const session = res.cookies.find((c) => c.name.startsWith('atrium_realm_'));
    return session ? `${session.name}=${session.value}` : undefined;
  }

  async function uploadAttachment(realmUid: string, session: string): Promise<string | undefined> {
    const boundary = 'fuzzsetup';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\n\r\n`),
      Buffer.from('plain notes\n'), Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await target.request({
      method: 'POST', url: `/api/customers/realms/${realmUid}/private_upload/answer`, payload,
      headers: { cookie: session, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    return res.statusCode === 200 ? res.json().uuid : undefined;
  }

  /** A fuzzed request may revoke the owner's token (deleting its application, say): issue another rather than lose coverage. */
  async function keepOwnerToken(): Promise<void> {
    const probe = await admin('GET', '/session');
    if (probe.statusCode === 401) ownerToken = await target.freshOwnerToken();
  }

  function headersFor(request: FuzzRequest): Record<string, string> {
    const headers: Record<string, string> = request.contentType ? { 'content-type': request.contentType } : {};
    switch (request.credential) {
      case 'owner': return { ...headers, authorization: `Bearer ${ownerToken}` };
      case 'garbage': return { ...headers, authorization: 'Bearer not-a-token' };
      case 'customer-session': return world.session ? { ...headers, cookie: world.session } : headers;
      case 'customer-token': return world.oauthToken ? { ...headers, authorization: `Bearer ${world.oauthToken}` } : headers;
      default: return headers;
    }
  }

  const pick = <T>(values: T[]) => values.slice(-3);
  const COLLECTIONS: Record<string, string> = { token_id: 'access_tokens', file_name: 'asset_files' };

  function knownValues(operation: Operation, parameter: string): unknown[] {
    // Customers operations get past the credential only in the signed-in user's realm: it is drawn more often.
    if (parameter === 'realm_uid') return operation.catalog === 'customers' && world.customerRealm ? [world.customerRealm, ...pick(world.realms)] : pick(world.realms);
    const segments = operation.path.split('/');
    const collection = COLLECTIONS[parameter] ?? segments[segments.indexOf(`{${parameter}}`) - 1];
    return pick(world.ids[`${collection}.${parameter}`] ?? world.ids[collection] ?? []);
  }

  const hints = (property: string): unknown[] | undefined => ({
    realm_uid: world.customerRealm ? [world.customerRealm] : undefined,
    target: pick(world.realms),
    application_id: pick(world.ids.applications ?? []),
    key: [...pick(world.fieldKeys), ...BUILT_IN_ROLE_KEYS],
    email: ['new@example.com', 'owner@atrium.test'],
    uid: ['fuzz-a', 'fuzz-b', 'fuzz-c'],
    name: ['Fuzz name'],
    context: ['account', 'realm', 'space', 'site'],
    type: ['text', 'number', 'date', 'checkbox', 'input', 'confirmation', 'mailing', 'notification'],
    user_id: pick(world.ids.users ?? []),
    group_id: pick(world.ids.groups ?? []),
    admin_id: [target.ownerId],
    member_ids: [[target.ownerId]],
    days: [1, 30],
    reason: ['Withdrawn'],
    steps: [ORIGINATION.steps],
    fields: [{}, Object.fromEntries(world.questionIds.map((id) => [id, 'Ada'])), CONTENT_FIELDS],
    default_locale: ['en', 'pt-BR'],
    locales: [['en', 'es']],
    campaign_id: pick(world.ids.campaigns ?? []),
    delivery_id: pick(world.ids.deliveries ?? []),
    subject: ['Hello {{ user.first_name }}', '{% if x %}'],
    body: ['<p>{{ user.name }}</p>', '{% for i in (1..100000000) %}x{% endfor %}'],
    only: ['id,name', 'segment_list'],
    password: [USER_PASSWORD],
    subdomain: ['acme', 'acme.zendesk.com'],
    // Nothing answers on port 9 of loopback: the identity provider's discovery fails at once (422), without leaving the machine.
    issuer: ['http://127.0.0.1:9', 'https://127.0.0.1:9/realms/x'],
    client_id: ['fuzz-client'],
    client_secret: [USER_PASSWORD],
    button_label: ['Fuzz ID'],
    scopes: [['openid', 'email'], ['email']],
    key_id: ['app_1'],
    shared_secret: [USER_PASSWORD],
    redirect_uris: [[REDIRECT]],
    url: ['/offers/1', 'https://bank.example/offers'],
    sort_by: ['__proto__', 'email', 'name', 'updated_at', 'matches_count'],
    order: ['asc', 'desc'],
    filters: SAMPLE_FILTERS,
    locale: ['en', 'es'],
    publish_at: ['2100-01-01T00:00:00Z', null],
    unpublish_at: ['2100-01-02T00:00:00Z', null],
    segment_uuids: [[]],
  } as Record<string, unknown[] | undefined>)[property];

  const operations: Operation[] = [];
  const documents = new Map<string, Schema>();
  for (const catalog of CATALOGS) {
    const document = (await target.request({ method: 'GET', url: `/api/${catalog}/docs/openapi.json` })).json() as Schema;
    documents.set(document.servers[0].url, document);
    operations.push(...operationsOf(catalog, document.servers[0].url, document));
  }
  await populate();
  const problems = new Map<string, { count: number; example: string }>();
  let sent = 0;
  let rounds = 0;
  const statuses = new Map<number, number>();
  const answered = new Set<string>();
  const fuzzed = new Set<string>();
  const timeLeft = () => options.until === undefined || Date.now() < options.until;
  for (let round = 0; round === 0 || (options.until !== undefined && timeLeft()); round++) {
    rounds++;
    for (const [index, operation] of operations.entries()) {
      if (!timeLeft()) break;
      const document = documents.get(operation.prefix)!;
      const resolve = (ref: string) => ref.replace(/^#\//, '').split('/').reduce((node: Schema, key) => node[key], document);
      const credentials: Credential[] = operation.catalog === 'admin' ? ['owner', 'owner', 'owner', 'none', 'garbage']
        : ['customer-session', 'customer-token', 'customer-token', 'owner', 'none', 'garbage'];
      const samples = fc.sample(requestsFor(operation, knownValues, { resolve, hint: hints }, credentials), { seed: seedOf(options.seed, round, index), numRuns: options.runs });
      fuzzed.add(`${operation.method} ${operation.path}`);
      for (const request of samples) {
        let res: TargetAnswer | null = null;
        let problem: string | null;
        try {
          res = await target.request({ method: request.method, url: request.url, headers: headersFor(request), payload: request.payload });
          problem = target.transportStatuses?.includes(res.statusCode) && res.body === '' ? null : problemWith(operation, request, res.statusCode, res.body);
        } catch (error) {
          problem = `no answer: ${(error as Error).message}`;
        }
        sent++;
        if (res) statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        if (res && res.statusCode < 300) answered.add(`${operation.method} ${operation.path}`);
        if (problem) {
          const key = `${operation.method} ${operation.prefix}${operation.path} ${problem.replace(/:.*/s, '')}`;
          const found = problems.get(key) ?? { count: 0, example: '' };
          found.count++;
          found.example ||= `${problem.slice(0, 400)}\n  ${request.method} ${request.url.slice(0, 200)} (${request.credential}, FUZZ_SEED=${seedOf(options.seed, round, 0)})`
            + `\n  payload: ${typeof request.payload === 'string' ? request.payload.slice(0, 300) : request.payload ? '<multipart>' : '-'}`
            + `\n  answer: ${res?.body.slice(0, 300) ?? '-'}`;
          problems.set(key, found);
        }
        if (request.credential === 'owner' && res?.statusCode === 401) await keepOwnerToken();
        if (sent % 120 === 0) await populate();
      }
    }
  }
  return {
    operations: operations.length, fuzzed: fuzzed.size, answered: answered.size, sent, rounds, statuses,
    problems: [...problems].map(([key, { count, example }]) => `${key} (${count}×)\n  ${example}`),
    seconds: (Date.now() - started) / 1000,
  };
}

/** One line: what was sent and how it was answered. */
export function summaryOf(result: FuzzResult, options: FuzzOptions): string {
  return `catalog fuzzer: ${result.operations} operations (${result.fuzzed} fuzzed, ${result.answered} answered 2xx at least once), `
    + `${result.sent} requests in ${result.rounds} round(s) of ${options.runs} per operation, seed ${options.seed}, ${result.seconds.toFixed(1)} s; `
    + `statuses ${JSON.stringify(Object.fromEntries([...result.statuses].sort((a, b) => a[0] - b[0])))}; ${result.problems.length} problem(s)`;
}
