import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { listen } from '../helpers/server.js';
import { makeSpace, makeType } from '../helpers/content.js';

const run = promisify(execFile);
const SCRIPT = path.resolve('scripts/content-types.js');

const EVERY_FIELD = [
  { name: 'title', type: 'text', required: true, localized: true, sortable: true },
  { name: 'body', type: 'rich_text', localized: true },
  { name: 'pages', type: 'integer', required: true },
  { name: 'price', type: 'decimal', sortable: true },
  { name: 'featured', type: 'boolean' },
  { name: 'issued_on', type: 'date' },
  { name: 'section', type: 'dropdown', options: ['news', 'sports'], required: true },
  { name: 'labels', type: 'checkbox', options: ['a', 'b'] },
  { name: 'place', type: 'location' },
  { name: 'cover', type: 'asset' },
  { name: 'author', type: 'entry', required: true },
  { name: 'related', type: 'entries' },
];

const UUID = '0b6f4c1e-8f53-4d5f-9a57-5c3a1f0e2d11';

/** A published entry of the type as the content API answers it without include. */
const wellFormed = (space: string, type: string) => ({
  meta: {
    uuid: UUID, space, name: 'Hello', slug: 'hello', type, private: false, category: null, tags: ['x'], locale: 'es',
    available_locales: ['en', 'es'], created_at: '2026-01-15T10:00:00.000Z', updated_at: '2026-01-15T10:00:00.000Z',
    published_at: '2026-01-15T10:00:00.000Z', unpublished_at: null, version_type: 'published',
  },
  fields: {
    title: 'Hola', body: '# Hola', pages: 3, price: 9.5, featured: true, issued_on: '2026-01-15', section: 'news', labels: ['a'],
    place: { lat: 40.4, lon: -3.7 }, cover: { uuid: UUID }, author: { uuid: UUID }, related: [{ uuid: UUID }],
  },
});

describe('the JSON Schema of a content type and npm run content:types', () => {
  let h: Harness;
  let base: string;
  let space: { uid: string };
  let type: { uid: string };
  let tmp: string;

  beforeAll(async () => {
    h = await startHarness();
    base = await listen(h);
    space = await makeSpace(h, { default_locale: 'en', locales: ['es'] });
    type = await makeType(h, space.uid, { uid: 'blog-post', name: 'Blog post', fields: EVERY_FIELD });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'content-types-'));
  });
  afterAll(async () => {
    await h?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  const schemaUrl = (s: string, t: string) => `/api/content/spaces/${s}/types/${t}/schema`;

  it('answers a draft 2020-12 JSON Schema without a credential', async () => {
    const res = await h.request({ method: 'GET', url: schemaUrl(space.uid, type.uid), token: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const schema = res.json();
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: `${base}/api/content/spaces/${space.uid}/types/blog-post/schema`,
      title: 'Blog post', type: 'object', required: ['meta', 'fields'], additionalProperties: false,
    });
    const meta = schema.properties.meta;
    expect(meta.required).toEqual([
      'uuid', 'space', 'name', 'slug', 'type', 'private', 'category', 'tags', 'locale', 'available_locales',
      'created_at', 'updated_at', 'published_at', 'unpublished_at', 'version_type',
    ]);
    expect(meta.properties.space).toEqual({ const: space.uid });
    expect(meta.properties.locale).toEqual({ type: 'string', enum: ['en', 'es'] });
    const fields = schema.properties.fields;
    expect(fields.required).toEqual(EVERY_FIELD.map((f) => f.name));
    expect(fields.additionalProperties).toBe(false);
    const p = fields.properties;
    expect(p.title).toMatchObject({ type: 'string' });
    expect(p.body.anyOf).toEqual([{ type: 'string', contentMediaType: 'text/markdown' }, { type: 'null' }]);
    expect(p.pages).toMatchObject({ type: 'integer' });
    expect(p.price.anyOf[0]).toEqual({ type: 'number' });
    expect(p.featured.anyOf[0]).toEqual({ type: 'boolean' });
    expect(p.issued_on.anyOf[0]).toEqual({ type: 'string', anyOf: [{ format: 'date' }, { format: 'date-time' }] });
    expect(p.section).toMatchObject({ type: 'string', enum: ['news', 'sports'] });
    expect(p.labels.anyOf[0]).toEqual({ type: 'array', items: { type: 'string', enum: ['a', 'b'] }, uniqueItems: true });
    expect(p.place.anyOf[0]).toMatchObject({ type: 'object', required: ['lat', 'lon'], additionalProperties: false });
    expect(p.cover.anyOf[0]).toMatchObject({ type: 'object', properties: { uuid: { type: 'string', format: 'uuid' } }, required: ['uuid'] });
    expect(p.author).toMatchObject({ type: 'object', required: ['uuid'] });
    expect(p.related.anyOf[0]).toMatchObject({ type: 'array', items: { type: 'object', required: ['uuid'] } });
  });

  it('validates a well-formed entry and refuses a wrong one (Ajv, draft 2020-12)', async () => {
    const schema = (await h.request({ method: 'GET', url: schemaUrl(space.uid, type.uid), token: null })).json();
    const ajv = new Ajv2020({ allErrors: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    const validate = ajv.compile(schema);
    const entry = wellFormed(space.uid, type.uid);
    expect(validate(entry), JSON.stringify(validate.errors)).toBe(true);
    const empty = { ...entry, fields: { ...entry.fields, body: null, price: null, featured: null, issued_on: '2026-01-15T10:00:00.000Z', labels: null, place: null, cover: null, related: null } };
    expect(validate(empty), JSON.stringify(validate.errors)).toBe(true);
    for (const fields of [
      { ...entry.fields, pages: 1.5 },
      { ...entry.fields, title: null },
      { ...entry.fields, section: 'culture' },
      { ...entry.fields, labels: ['z'] },
      { ...entry.fields, place: { lat: 100, lon: 0 } },
      { ...entry.fields, issued_on: 'yesterday' },
      { ...entry.fields, unknown: 1 },
      { ...entry.fields, author: 'not an object' },
    ]) {
      expect(validate({ ...entry, fields }), JSON.stringify(fields)).toBe(false);
    }
    expect(validate({ ...entry, meta: { ...entry.meta, locale: 'fr' } })).toBe(false);
  });

  it('answers 404 for an unknown space or type', async () => {
    for (const url of [schemaUrl('nope', type.uid), schemaUrl(space.uid, 'nope'), schemaUrl('a'.repeat(90), 'x')]) {
      const res = await h.request({ method: 'GET', url, token: null });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ errors: ['Content type not found'] });
    }
  });

  it('follows changes of the type and of the space\'s locales', async () => {
    const changed = await h.request({
      method: 'PUT', url: `/api/admin/content/spaces/${space.uid}/types/${type.uid}`, payload: { name: 'Post', fields: [{ name: 'only_one', type: 'text' }] },
    });
    expect(changed.statusCode).toBe(200);
    await h.request({ method: 'PUT', url: `/api/admin/content/spaces/${space.uid}`, payload: { locales: ['pt-BR'] } });
    const schema = (await h.request({ method: 'GET', url: schemaUrl(space.uid, type.uid), token: null })).json();
    expect(schema.title).toBe('Post');
    expect(Object.keys(schema.properties.fields.properties)).toEqual(['only_one']);
    expect(schema.properties.meta.properties.locale.enum).toEqual(['en', 'pt-BR']);
    await h.request({ method: 'PUT', url: `/api/admin/content/spaces/${space.uid}/types/${type.uid}`, payload: { name: 'Blog post', fields: EVERY_FIELD } });
    await h.request({ method: 'PUT', url: `/api/admin/content/spaces/${space.uid}`, payload: { locales: ['es'] } });
  });

  it('documents the operation in the content catalog', async () => {
    const doc = (await h.request({ method: 'GET', url: '/api/content/docs/openapi.json', token: null })).json();
    expect(doc.paths['/spaces/{space_uid}/types/{type_uid}/schema'].get.responses).toHaveProperty('200');
    expect(doc.paths['/spaces/{space_uid}/types/{type_uid}/schema'].get.responses).toHaveProperty('404');
    expect(Object.keys(doc.components.schemas)).toContain('ContentTypeSchema');
  });

  /** Type-checks the generated module with snippets beside it; the diagnostics of each file, as text. */
  function typeCheck(generated: string, snippets: Record<string, string>): Record<string, string[]> {
    const dir = fs.mkdtempSync(path.join(tmp, 'check-'));
    fs.writeFileSync(path.join(dir, 'entry.ts'), generated);
    for (const [name, text] of Object.entries(snippets)) fs.writeFileSync(path.join(dir, name), text);
    const program = ts.createProgram(['entry.ts', ...Object.keys(snippets)].map((name) => path.join(dir, name)), {
      strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: [], skipLibCheck: true,
    });
    const byFile: Record<string, string[]> = {};
    for (const d of ts.getPreEmitDiagnostics(program)) {
      const file = d.file ? path.basename(d.file.fileName) : 'program';
      (byFile[file] ??= []).push(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    }
    return byFile;
  }

  it('prints TypeScript types that accept a well-formed entry and refuse a wrong field type', async () => {
    const { stdout, stderr } = await run(process.execPath, [SCRIPT, space.uid, type.uid, '--url', base]);
    expect(stderr).toBe('');
    expect(stdout).toContain('export interface BlogPostEntry {');
    expect(stdout).toContain('export type BlogPostEntryFields = BlogPostEntry[\'fields\'];');
    expect(stdout).toMatch(/section: "news" \| "sports";/);
    expect(stdout).toMatch(/price: number \| null;/);

    const entry = JSON.stringify(wellFormed(space.uid, type.uid), null, 2);
    const diagnostics = typeCheck(stdout, {
      'good.ts': `import type { BlogPostEntry, BlogPostEntryFields } from './entry';\n`
        + `export const entry: BlogPostEntry = ${entry};\n`
        + 'export const title: string = entry.fields.title;\n'
        + 'export const pages: number = entry.fields.pages;\n'
        + 'export const fields: BlogPostEntryFields = entry.fields;\n',
      'wrong-type.ts': `import type { BlogPostEntry } from './entry';\n`
        + `const good: BlogPostEntry = ${entry};\n`
        + 'export const entry: BlogPostEntry = { ...good, fields: { ...good.fields, pages: "three" } };\n',
      'wrong-option.ts': `import type { BlogPostEntry } from './entry';\n`
        + `const good: BlogPostEntry = ${entry};\n`
        + 'export const entry: BlogPostEntry = { ...good, fields: { ...good.fields, section: "culture" } };\n',
      'missing.ts': `import type { BlogPostEntry } from './entry';\n`
        + 'export const title: string = ({} as BlogPostEntry).fields.body;\n',
    });
    expect(diagnostics['entry.ts']).toBeUndefined();
    expect(diagnostics['good.ts']).toBeUndefined();
    expect(diagnostics['wrong-type.ts']?.join('\n')).toMatch(/Type 'string' is not assignable to type 'number'/);
    expect(diagnostics['wrong-option.ts']?.join('\n')).toMatch(/"culture"/);
    expect(diagnostics['missing.ts']?.join('\n')).toMatch(/null/);
  });

  it('writes the types to a file with --out, takes PORT as the default address, and fails clearly', async () => {
    const out = path.join(tmp, 'blog-post.ts');
    const port = new URL(base).port;
    const written = await run(process.execPath, [SCRIPT, space.uid, type.uid, `--out=${out}`], { env: { ...process.env, PORT: port } });
    expect(written.stdout).toBe('');
    expect(fs.readFileSync(out, 'utf8')).toContain('export interface BlogPostEntry {');

    const unknown = await run(process.execPath, [SCRIPT, space.uid, 'nope', '--url', base]).catch((err) => err);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`no content type nope in space ${space.uid}`);
    const usage = await run(process.execPath, [SCRIPT, space.uid]).catch((err) => err);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('usage: npm run content:types');
  });
});
