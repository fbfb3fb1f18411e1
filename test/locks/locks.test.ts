import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSpace, makeType } from '../helpers/content.js';
import { startHarness, type Harness } from '../helpers/harness.js';

let h: Harness;
let space: { uid: string };
let otherSpace: { uid: string };
let entriesUrl: string;
let applicationId: number;

interface Member { id: number; name: string; token: string }

/** A team member with a name of its own (the lock shows it) and the given roles, with an access token. */
async function member(name: string, roles: { key: string; target?: string }[]): Promise<Member> {
  const email = `${randomBytes(4).toString('hex')}@example.com`;
  const created = await h.request({ method: 'POST', url: '/api/admin/team_members', payload: { email, password: 'a sturdy password', name, roles } });
  expect(created.statusCode, created.body).toBe(201);
  const token = await h.request({ method: 'POST', url: `/api/admin/team_members/${created.json().id}/access_tokens`, payload: { application_id: applicationId } });
  return { id: created.json().id, name, token: token.json().token };
}

const writer = (name: string, spaceUid = space.uid) => member(name, [{ key: 'space_writer', target: spaceUid }]);
const editor = (name: string) => member(name, [{ key: 'space_editor', target: space.uid }]);
/** Two writers and an editor (who may publish, so take locks over). */
const team = async () => ({ ana: await writer('Ana Díaz'), bruno: await writer('Bruno Paz'), carla: await editor('Carla Gil') });

async function newEntry(): Promise<string> {
  const res = await h.request({ method: 'POST', url: entriesUrl, payload: { name: `Entry ${randomBytes(3).toString('hex')}` } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().meta.uuid;
}

const acquire = (who: Member | null, uuid: string, extra: Record<string, unknown> = {}) => h.request({
  method: 'POST', url: '/api/admin/locks', token: who?.token, payload: { resource_type: 'content_entry', resource_id: uuid, ...extra },
});
const heartbeat = (who: Member, id: number) => h.request({ method: 'PUT', url: `/api/admin/locks/${id}`, token: who.token });
const release = (who: Member | null, id: number) => h.request({ method: 'DELETE', url: `/api/admin/locks/${id}`, token: who?.token });
const save = (who: Member, uuid: string, headers: Record<string, string> = {}) => h.request({
  method: 'PUT', url: `${entriesUrl}/${uuid}`, token: who.token, headers, payload: { name: 'Changed' },
});

async function held(who: Member, uuid: string) {
  const res = await acquire(who, uuid);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

function expectLockedBy(res: { statusCode: number; headers: Record<string, unknown>; json(): any }, name: string) {
  expect(res.statusCode).toBe(409);
  expect(res.headers['atrium-error-code']).toBe('ATR_LOCKED');
  expect(res.json().code).toBe('ATR_LOCKED');
  expect(res.json().errors[0]).toMatch(new RegExp(`^${name} is editing this item \\(since \\d\\d:\\d\\d UTC\\)`));
}

beforeAll(async () => {
  h = await startHarness();
  space = await makeSpace(h);
  otherSpace = await makeSpace(h);
  const type = await makeType(h, space.uid);
  entriesUrl = `/api/admin/content/spaces/${space.uid}/types/${type.uid}/entries`;
  const app = await h.request({ method: 'POST', url: '/api/admin/api_access/applications', payload: { name: 'Editors' } });
  applicationId = app.json().id;
});
afterAll(async () => { await h?.close(); });

describe('edit locks', () => {
  it('gives one of 20 concurrent requests by 20 members the lock; the others are 409 naming the holder', async () => {
    const uuid = await newEntry();
    const members: Member[] = [];
    for (let i = 0; i < 20; i++) members.push(await writer(`Writer ${i}`));
    const answers = await Promise.all(members.map((m) => acquire(m, uuid)));
    const won = answers.filter((a) => a.statusCode === 201);
    expect(won).toHaveLength(1);
    const lock = won[0].json();
    const holder = members.find((m) => m.id === lock.holder.id)!;
    expect(lock).toEqual({
      id: expect.any(Number), resource_type: 'content_entry', resource_id: uuid, scope: space.uid, holder: { id: holder.id, name: holder.name },
      acquired_at: h.clock.now().toISOString(), expires_at: new Date(h.clock.now().getTime() + 5 * 60_000).toISOString(),
    });
    const refused = answers.filter((a) => a.statusCode !== 201);
    expect(refused).toHaveLength(19);
    for (const answer of refused) expectLockedBy(answer, holder.name);
  });

  it('refuses a write under someone else\'s lock; the holder\'s own save goes through and renews it', async () => {
    const uuid = await newEntry();
    const ana = await writer('Ana Díaz');
    const bruno = await writer('Bruno Paz');
    const lock = await held(ana, uuid);
    expectLockedBy(await save(bruno, uuid), 'Ana Díaz');
    expectLockedBy(await h.request({ method: 'DELETE', url: `${entriesUrl}/${uuid}`, token: bruno.token }), 'Ana Díaz');
    expectLockedBy(await h.request({ method: 'POST', url: `${entriesUrl}/${uuid}/publish` }), 'Ana Díaz');
    h.clock.advanceMinutes(4);
    expect((await save(ana, uuid)).statusCode).toBe(200);
    h.clock.advanceMinutes(4);
    // Eight minutes after it was taken, the save four minutes in kept it alive.
    expectLockedBy(await save(bruno, uuid), 'Ana Díaz');
    const renewed = await heartbeat(ana, lock.id);
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().expires_at).toBe(new Date(h.clock.now().getTime() + 5 * 60_000).toISOString());
    expect(renewed.json().acquired_at).toBe(lock.acquired_at);
  });

  it('lets a member who may publish override the lock with the header; the old holder\'s heartbeat is 409 naming them', async () => {
    const uuid = await newEntry();
    const { ana, bruno, carla } = await team();
    const lock = await held(ana, uuid);
    expect((await save(bruno, uuid, { 'atrium-lock-override': 'take-over' })).statusCode).toBe(403);
    const saved = await save(carla, uuid, { 'atrium-lock-override': 'take-over' });
    expect(saved.statusCode, saved.body).toBe(200);
    expectLockedBy(await heartbeat(ana, lock.id), 'Carla Gil');
    expectLockedBy(await save(ana, uuid), 'Carla Gil');
    const listed = await h.request({ method: 'GET', url: `/api/admin/locks?resource_type=content_entry&scope=${space.uid}&per_page=100` });
    expect(listed.json().locks.find((l: { id: number }) => l.id === lock.id).holder).toEqual({ id: carla.id, name: 'Carla Gil' });
  });

  it('takes a lock over with take_over for a role that may publish, and refuses it to one that may not', async () => {
    const uuid = await newEntry();
    const { ana, bruno, carla } = await team();
    const lock = await held(ana, uuid);
    expectLockedBy(await acquire(carla, uuid), 'Ana Díaz');
    expect((await acquire(bruno, uuid, { take_over: true })).statusCode).toBe(403);
    const taken = await acquire(carla, uuid, { take_over: true });
    expect(taken.statusCode, taken.body).toBe(201);
    expect(taken.json()).toMatchObject({ id: lock.id, holder: { id: carla.id, name: 'Carla Gil' } });
    expectLockedBy(await heartbeat(ana, lock.id), 'Carla Gil');
    expectLockedBy(await acquire(ana, uuid), 'Carla Gil');
  });

  it('lets a lock expire five minutes after its last heartbeat; whoever takes it next holds it', async () => {
    const uuid = await newEntry();
    const ana = await writer('Ana Díaz');
    const bruno = await writer('Bruno Paz');
    const lock = await held(ana, uuid);
    h.clock.advanceMinutes(4);
    expect((await heartbeat(ana, lock.id)).statusCode).toBe(200);
    h.clock.advanceMinutes(4);
    expectLockedBy(await acquire(bruno, uuid), 'Ana Díaz');
    h.clock.advanceMinutes(1);
    expect((await save(bruno, uuid)).statusCode).toBe(200);
    const taken = await acquire(bruno, uuid);
    expect(taken.statusCode).toBe(201);
    expect(taken.json()).toMatchObject({ holder: { id: bruno.id }, acquired_at: h.clock.now().toISOString() });
    expectLockedBy(await heartbeat(ana, lock.id), 'Bruno Paz');
  });

  it('is released by its holder or by a member who may take it over, not by another writer', async () => {
    const uuid = await newEntry();
    const { ana, bruno, carla } = await team();
    const first = await held(ana, uuid);
    expect((await release(bruno, first.id)).statusCode).toBe(403);
    expect((await release(ana, first.id)).statusCode).toBe(204);
    expect((await heartbeat(ana, first.id)).statusCode).toBe(404);
    expect((await save(bruno, uuid)).statusCode).toBe(200);
    const second = await held(bruno, uuid);
    expect((await release(carla, second.id)).statusCode).toBe(204);
    const third = await held(ana, uuid);
    expect((await release(null, third.id)).statusCode).toBe(204);
    expect((await release(null, third.id)).statusCode).toBe(404);
  });

  it('records taking and releasing a lock in the audit log, not its heartbeats', async () => {
    const uuid = await newEntry();
    const { ana } = await team();
    const lock = await held(ana, uuid);
    expect((await heartbeat(ana, lock.id)).statusCode).toBe(200);
    expect((await release(ana, lock.id)).statusCode).toBe(204);
    const logs = await h.request({ method: 'GET', url: `/api/admin/logs?resource_type=locks&resource_id=${lock.id}&member_id=${ana.id}` });
    expect(logs.json().logs.map((l: { operation: string }) => l.operation).sort()).toEqual(['DELETE /locks/{id}', 'POST /locks']);
  });

  it('needs the permission to write the item, and hides items out of the member\'s sight', async () => {
    const uuid = await newEntry();
    const viewer = await member('Vera Vista', [{ key: 'space_viewer', target: space.uid }]);
    const stranger = await writer('Otto Otro', otherSpace.uid);
    const ana = await writer('Ana Díaz');
    expect((await acquire(viewer, uuid)).statusCode).toBe(403);
    expect((await acquire(stranger, uuid)).statusCode).toBe(404);
    expect((await acquire(null, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await acquire(null, 'not-a-uuid')).statusCode).toBe(404);
    const unknownType = await acquire(null, uuid, { resource_type: 'spaceship' });
    expect(unknownType.statusCode).toBe(422);
    const lock = await held(ana, uuid);
    expect((await heartbeat(stranger, lock.id)).statusCode).toBe(404);
    expect((await release(stranger, lock.id)).statusCode).toBe(404);
    const seen = await h.request({ method: 'GET', url: '/api/admin/locks?per_page=100', token: stranger.token });
    expect(seen.statusCode).toBe(200);
    expect(seen.json().locks.map((l: { id: number }) => l.id)).not.toContain(lock.id);
  });

  it('lists live locks, filtered by kind and scope, paginated', async () => {
    const ana = await writer('Ana Díaz');
    const uuids = [await newEntry(), await newEntry(), await newEntry()];
    const locks = [];
    for (const uuid of uuids) locks.push(await held(ana, uuid));
    const page = await h.request({ method: 'GET', url: `/api/admin/locks?scope=${space.uid}&per_page=2&page=1`, token: ana.token });
    expect(page.statusCode).toBe(200);
    expect(page.json().meta).toEqual({ total_entries: expect.any(Number), per_page: 2, current_page: 1, total_pages: expect.any(Number) });
    const all = await h.request({ method: 'GET', url: `/api/admin/locks?scope=${space.uid}&resource_type=content_entry&per_page=100` });
    const ids = all.json().locks.map((l: { id: number }) => l.id);
    for (const lock of locks) expect(ids).toContain(lock.id);
    expect(all.json().meta.total_entries).toBe(ids.length);
    const one = await h.request({ method: 'GET', url: `/api/admin/locks?resource_type=content_entry&resource_id=${uuids[1]}`, token: ana.token });
    expect(one.json().locks).toEqual([locks[1]]);
    const elsewhere = await h.request({ method: 'GET', url: `/api/admin/locks?scope=${otherSpace.uid}` });
    expect(elsewhere.json()).toEqual({ locks: [], meta: { total_entries: 0, per_page: 10, current_page: 1, total_pages: 0 } });
    h.clock.advanceMinutes(6);
    const later = await h.request({ method: 'GET', url: `/api/admin/locks?scope=${space.uid}&per_page=100` });
    expect(later.json().locks.map((l: { id: number }) => l.id)).not.toContain(locks[0].id);
  });

  it('drops the locks of a deleted entry; an override deletes under someone else\'s lock', async () => {
    const uuid = await newEntry();
    const ana = await writer('Ana Díaz');
    const lock = await held(ana, uuid);
    expectLockedBy(await h.request({ method: 'POST', url: `${entriesUrl}/${uuid}/unpublish` }), 'Ana Díaz');
    const deleted = await h.request({ method: 'DELETE', url: `${entriesUrl}/${uuid}`, headers: { 'atrium-lock-override': 'take-over' } });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await heartbeat(ana, lock.id)).statusCode).toBe(404);
  });
});
