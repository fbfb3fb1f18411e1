import { createHash } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../admin-auth/principal.js';
import { FieldErrors, invalidField, notFound } from '../errors/index.js';
import { uniqueViolation } from '../db/unique.js';
import { siteFiles } from '../tables/sites.js';
import { SITE_LIMITS, type FileInput, type FileModel } from './schema.js';
import { draftChanged, requireSite } from './sites.js';
import { assertSiteItemUnlocked } from './site-locks.js';

type SiteFile = typeof siteFiles.$inferSelect;
export type FileBody = Static<typeof FileModel>;

/** A file's name: served as CSS or JavaScript by its extension. */
export const FILE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}\.(css|js)$/;

/** The first 16 hex digits of the body's SHA-256: the part of the served name that changes with the body. */
export const fileHash = (body: string) => createHash('sha256').update(body).digest('hex').slice(0, 16);

/** `main.css` with hash h is served as `main.h.css`. */
export const hashedName = (name: string, hash: string) => name.replace(/\.(css|js)$/, `.${hash}.$1`);

export const fileBody = (f: SiteFile): FileBody => ({
  id: f.id, name: f.name, body: f.body, hash: fileHash(f.body), created_at: f.createdAt.toISOString(), updated_at: f.updatedAt.toISOString(),
});

export async function listFiles(ctx: ActingContext, siteUid: string): Promise<FileBody[]> {
  const { site } = await requireSite(ctx, siteUid, 'site.read');
  return (await ctx.db.select().from(siteFiles).where(eq(siteFiles.siteId, site.id)).orderBy(asc(siteFiles.name))).map(fileBody);
}

export async function requireFile(ctx: ActingContext, siteUid: string, id: number, permission: 'site.read' | 'site.write') {
  const { site } = await requireSite(ctx, siteUid, permission);
  const [file] = await ctx.db.select().from(siteFiles).where(and(eq(siteFiles.id, id), eq(siteFiles.siteId, site.id)));
  if (!file) throw notFound('File');
  return { site, file };
}

function checked(input: Static<typeof FileInput>, creating: boolean) {
  const errors = new FieldErrors();
  const name = input.name?.trim();
  if (creating || input.name !== undefined) {
    if (!name) errors.add('name', "can't be blank");
    else if (!FILE_NAME.test(name)) errors.add('name', 'must be lower-case letters, digits, "-" and "_" ending in .css or .js');
  }
  if (creating && input.body === undefined) errors.add('body', "can't be blank");
  errors.throwIfAny();
  return { name, body: input.body };
}

const nameTaken = (err: unknown): never => {
  if (uniqueViolation(err) !== null) throw invalidField('name', 'has already been taken');
  throw err;
};

export async function createFile(ctx: ActingContext, siteUid: string, input: Static<typeof FileInput>): Promise<FileBody> {
  const { site } = await requireSite(ctx, siteUid, 'site.write');
  const { name, body } = checked(input, true);
  if (await ctx.db.$count(siteFiles, eq(siteFiles.siteId, site.id)) >= SITE_LIMITS.files) {
    throw invalidField('base', `a site holds at most ${SITE_LIMITS.files} files`);
  }
  const now = ctx.clock.now();
  const [row] = await ctx.db.insert(siteFiles).values({ siteId: site.id, name: name!, body: body!, createdAt: now, updatedAt: now }).returning().catch(nameTaken);
  await draftChanged(ctx, site.id);
  return fileBody(row);
}

export async function updateFile(ctx: ActingContext, siteUid: string, id: number, input: Static<typeof FileInput>, override = false): Promise<FileBody> {
  const { site, file } = await requireFile(ctx, siteUid, id, 'site.write');
  await assertSiteItemUnlocked(ctx, 'site_file', String(file.id), override);
  const { name, body } = checked(input, false);
  const [row] = await ctx.db.update(siteFiles).set({ name, body, updatedAt: ctx.clock.now() }).where(eq(siteFiles.id, file.id)).returning().catch(nameTaken);
  await draftChanged(ctx, site.id);
  return fileBody(row);
}

export async function deleteFile(ctx: ActingContext, siteUid: string, id: number, override = false): Promise<void> {
  const { site, file } = await requireFile(ctx, siteUid, id, 'site.write');
  await assertSiteItemUnlocked(ctx, 'site_file', String(file.id), override);
  await ctx.db.delete(siteFiles).where(eq(siteFiles.id, file.id));
  await draftChanged(ctx, site.id);
}
