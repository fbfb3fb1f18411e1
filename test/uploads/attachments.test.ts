import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken, REALM_USER_PASSWORD, signInAtLoginPage } from '../helpers/realms.js';
import { listen } from '../helpers/server.js';
import { pdf, png, storedFiles } from './files.js';

const MB = 1024 * 1024;

describe('private attachments', () => {
  let h: Harness;
  let base: string;
  let realm: { uid: string };
  let alice: { id: number; cookie: string };
  let bob: { id: number; cookie: string };
  let fileQuestion: number;
  let textQuestion: number;

  async function signedInUser(realmUid: string) {
    const user = await makeRealmUser(h, realmUid);
    return { id: user.id as number, cookie: await signInAtLoginPage(h, realmUid, user.email, REALM_USER_PASSWORD) };
  }

  /** An origination with one input task asking a text and a file question (admin API); answers it with the questions' ids. */
  async function originationOf(realmUid: string) {
    const res = await h.request({
      method: 'POST', url: `/api/admin/customers/${realmUid}/originations`,
      payload: { name: 'Open an account', steps: [{ name: 'Documents', tasks: [{ name: 'Your documents', type: 'input', questions: [
        { label: 'Your name', type: 'text' }, { label: 'Your passport', type: 'file' },
      ] }] }] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const origination = res.json();
    const [task] = origination.steps[0].tasks;
    return { id: origination.id as number, taskUid: task.uid as string, text: task.questions[0].id as number, file: task.questions[1].id as number };
  }

  beforeAll(async () => {
    h = await startHarness();
    base = await listen(h);
    realm = await makeRealm(h);
    alice = await signedInUser(realm.uid);
    bob = await signedInUser(realm.uid);
    ({ file: fileQuestion, text: textQuestion } = await originationOf(realm.uid));
  });
  afterAll(async () => {
    await h?.close();
  });

  const answerUrl = (uid = realm.uid) => `${base}/api/customers/realms/${uid}/private_upload/answer`;

  function upload(cookie: string | null, name: string | null, content: Buffer, fields: Record<string, string> = {}, uid = realm.uid) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    if (name !== null) form.append('file', new Blob([new Uint8Array(content)]), name);
    return fetch(answerUrl(uid), { method: 'POST', body: form, headers: cookie ? { cookie } : {} });
  }
  const read = (url: string, headers: Record<string, string>) => fetch(`${base}${url}`, { headers });
  const remove = (uuid: string, cookie: string | null) => fetch(`${answerUrl()}/${uuid}`, { method: 'DELETE', headers: cookie ? { cookie } : {} });
  const attachmentFiles = () => storedFiles(h, 'attachments');

  async function setLimits(limits: { upload_max_bytes?: number; allowed_extensions?: string[] }) {
    expect((await h.request({ method: 'PUT', url: '/api/admin/account', payload: limits })).statusCode).toBe(200);
  }

  it('stores a real PNG for its owner, answers it and serves it inline, to the owner only', async () => {
    const image = png(16, 16);
    const res = await upload(alice.cookie, 'passport.png', image, { question_id: String(fileQuestion) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      id: expect.any(Number), uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'passport.png', size: image.length,
      url: `/api/customers/realms/${realm.uid}/private_upload/answer/${body.uuid}`,
    });
    expect(attachmentFiles()).toEqual([body.uuid]);

    const served = await read(body.url, { cookie: alice.cookie });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('content-disposition')).toBe('inline; filename="passport.png"; filename*=UTF-8\'\'passport.png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(served.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(image);

    // Another user of the realm, no credential, and a user of another realm get nothing.
    expect((await read(body.url, { cookie: bob.cookie })).status).toBe(404);
    const anonymous = await read(body.url, {});
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: { user_session: 'user not found' } });
    const elsewhere = await makeRealm(h);
    const stranger = await signedInUser(elsewhere.uid);
    expect((await read(`/api/customers/realms/${elsewhere.uid}/private_upload/answer/${body.uuid}`, { cookie: stranger.cookie })).status).toBe(404);
  });

  it('serves a PDF as a download, with the name encoded', async () => {
    const res = await upload(alice.cookie, 'état civil (copie).pdf', pdf());
    expect(res.status).toBe(200);
    const { url, name } = await res.json();
    expect(name).toBe('état civil (copie).pdf');
    const served = await read(url, { cookie: alice.cookie });
    expect(served.headers.get('content-type')).toBe('application/pdf');
    expect(served.headers.get('content-disposition')).toBe('attachment; filename="_tat civil (copie).pdf"; filename*=UTF-8\'\'%C3%A9tat%20civil%20%28copie%29.pdf');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(pdf());
  });

  it('takes UTF-8 text and CSV without markup', async () => {
    const csv = Buffer.from('\uFEFFname;limit\n"Zoë";a < b and 3<4\n');
    const res = await upload(alice.cookie, 'rows.csv', csv);
    expect(res.status).toBe(200);
    const served = await read((await res.json()).url, { cookie: alice.cookie });
    expect(served.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(served.headers.get('content-disposition')).toMatch(/^attachment; /);
    // Characters of 2, 3 and 4 bytes, cut wherever the stream's chunks end.
    const wide = Buffer.from('é€😀 '.repeat(100_000));
    const long = await upload(alice.cookie, 'wide.txt', wide);
    expect(long.status).toBe(200);
    expect((await long.json()).size).toBe(wide.length);
    const cut = await upload(alice.cookie, 'cut.txt', wide.subarray(0, wide.length - 2));
    expect((await cut.json()).errors).toEqual(['cut.txt: content does not match the extension']);
  });

  it('refuses what is not allowed or not what it says, one text per reason starting with the file name, storing nothing', async () => {
    const before = attachmentFiles();
    const cases: [string, Buffer, string[]][] = [
      ['setup.exe', Buffer.concat([Buffer.from('MZ\x90\x00', 'latin1'), Buffer.alloc(200)]), ['setup.exe: extension is not allowed']],
      ['notes.png', Buffer.from('just some text, not an image'), ['notes.png: content does not match the extension']],
      ['page.txt', Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>'), ['page.txt: content does not match the extension']],
      ['drawing.txt', Buffer.from('hello\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), ['drawing.txt: content does not match the extension']],
      ['latin1.txt', Buffer.from('caf\xe9', 'latin1'), ['latin1.txt: content does not match the extension']],
      ['binary.csv', Buffer.from([0x61, 0x00, 0x62]), ['binary.csv: content does not match the extension']],
      ['polyglot.png', Buffer.concat([png(), Buffer.from('<svg onload="alert(1)">')]), ['polyglot.png: content does not match the extension']],
      ['page.pdf', Buffer.concat([pdf(), Buffer.from('<html><script>alert(1)</script>')]), ['page.pdf: content does not match the extension']],
      ['drawing.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), ['drawing.svg: extension is not allowed']],
      ['page.html', Buffer.from('<html></html>'), ['page.html: extension is not allowed']],
      ['pdf.png', pdf(), ['pdf.png: content does not match the extension']],
      ['empty.pdf', Buffer.alloc(0), ['empty.pdf: is empty']],
      ['noextension', png(), ['noextension: extension is not allowed']],
    ];
    for (const [name, content, errors] of cases) {
      const res = await upload(alice.cookie, name, content);
      expect(res.status, name).toBe(422);
      expect((await res.json()).errors, name).toEqual(errors);
    }
    const none = await upload(alice.cookie, null, Buffer.alloc(0), { question_id: String(fileQuestion) });
    expect(none.status).toBe(422);
    expect((await none.json()).errors).toEqual(["File can't be blank"]);
    expect(attachmentFiles()).toEqual(before);
  });

  it('keeps to the account\'s limit: a file at the limit is taken, one byte more is cut and refused', async () => {
    await setLimits({ upload_max_bytes: 1000 });
    try {
      const exact = await upload(alice.cookie, 'exact.txt', Buffer.alloc(1000, 'a'));
      expect(exact.status).toBe(200);
      expect((await exact.json()).size).toBe(1000);
      const before = attachmentFiles();
      const over = await upload(alice.cookie, 'over.txt', Buffer.alloc(1001, 'a'));
      expect(over.status).toBe(422);
      expect((await over.json()).errors).toEqual(['over.txt: is larger than the maximum of 1000 bytes']);
      const both = await upload(alice.cookie, 'big.exe', Buffer.alloc(5000, 'a'));
      expect((await both.json()).errors).toEqual(['big.exe: is larger than the maximum of 1000 bytes', 'big.exe: extension is not allowed']);
      expect(attachmentFiles()).toEqual(before);
    } finally {
      await setLimits({ upload_max_bytes: 10 * MB });
    }
  });

  it('keeps to the account\'s allowed extensions', async () => {
    await setLimits({ allowed_extensions: ['png', 'exe'] });
    try {
      expect((await (await upload(alice.cookie, 'doc.pdf', pdf())).json()).errors).toEqual(['doc.pdf: extension is not allowed']);
      // An extension the account allows but whose content cannot be checked is refused all the same.
      expect((await (await upload(alice.cookie, 'setup.exe', Buffer.from('MZ'))).json()).errors).toEqual(['setup.exe: extension is not allowed']);
      expect((await upload(alice.cookie, 'me.png', png())).status).toBe(200);
    } finally {
      await setLimits({ allowed_extensions: ['jpg', 'jpeg', 'png', 'gif', 'webp', 'pdf', 'doc', 'docx', 'txt', 'csv'] });
    }
  });

  it('answers 404 to a question_id that is not a file question of the realm, storing nothing', async () => {
    const elsewhere = await makeRealm(h);
    const foreign = await originationOf(elsewhere.uid);
    const before = attachmentFiles();
    for (const questionId of [String(textQuestion), String(foreign.file), '2147483648', '1099511627776', '-1', 'abc', '', ' 1']) {
      const res = await upload(alice.cookie, 'me.png', png(), { question_id: questionId });
      expect(res.status, questionId).toBe(404);
      expect(await res.json(), questionId).toEqual({});
    }
    expect(attachmentFiles()).toEqual(before);
  });

  it('answers 401 without a session and 404 {} for an unknown realm', async () => {
    const res = await upload(null, 'me.png', png());
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { user_session: 'user not found' } });
    const unknown = await upload(alice.cookie, 'me.png', png(), {}, 'no-such-realm');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({});
  });

  it('deletes a file at once: the record and the file on disk; another user cannot', async () => {
    const { uuid, url } = await (await upload(alice.cookie, 'passport.pdf', pdf())).json();
    expect(attachmentFiles()).toContain(uuid);
    const foreign = await remove(uuid, bob.cookie);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({});
    expect((await remove(uuid, null)).status).toBe(401);
    expect(attachmentFiles()).toContain(uuid);

    const deleted = await remove(uuid, alice.cookie);
    expect(deleted.status).toBe(200);
    expect(await deleted.text()).toBe('');
    expect(attachmentFiles()).not.toContain(uuid);
    expect((await read(url, { cookie: alice.cookie })).status).toBe(404);
    expect((await remove(uuid, alice.cookie)).status).toBe(404);
    for (const bad of ['00000000-0000-0000-0000-000000000000', 'not-a-uuid', '..%2F..%2Fetc']) {
      expect((await remove(bad, alice.cookie)).status, bad).toBe(404);
      expect((await read(`/api/customers/realms/${realm.uid}/private_upload/answer/${bad}`, { cookie: alice.cookie })).status, bad).toBe(404);
    }
  });

  it('deletes once under 50 concurrent deletions of the same file', async () => {
    const { uuid } = await (await upload(alice.cookie, 'once.pdf', pdf())).json();
    const answers = await Promise.all(Array.from({ length: 50 }, () => remove(uuid, alice.cookie)));
    const statuses = answers.map((res) => res.status);
    await Promise.all(answers.map((res) => res.text()));
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 404)).toHaveLength(49);
    expect(attachmentFiles()).not.toContain(uuid);
  });

  it('answers a file question with the attachment\'s id; once the file is deleted the answer has none', async () => {
    const origination = await originationOf(realm.uid);
    const started = await h.request({
      method: 'POST', url: `/api/admin/customers/${realm.uid}/originations/${origination.id}/submissions`, payload: { user_id: alice.id },
    });
    expect(started.statusCode, started.body).toBe(201);
    const { uuid: submission } = started.json();
    const attachment = await (await upload(alice.cookie, 'passport.pdf', pdf(), { question_id: String(origination.file) })).json();
    const customers = (method: 'GET' | 'PUT', url: string, payload?: object) =>
      h.request({ method, url: `/api/customers/realms/${realm.uid}${url}`, token: null, headers: { cookie: alice.cookie }, payload });
    const fields = { [origination.text]: 'Alice', [origination.file]: attachment.id };
    const answered = await customers('PUT', `/submissions/${submission}/tasks/${origination.taskUid}`, { fields });
    expect(answered.statusCode, answered.body).toBe(200);
    expect((await customers('GET', `/submissions/${submission}`)).json().tasks[0].fields[origination.file]).toBe(attachment.id);

    expect((await remove(attachment.uuid, alice.cookie)).status).toBe(200);
    expect(attachmentFiles()).not.toContain(attachment.uuid);
    const after = (await customers('GET', `/submissions/${submission}`)).json().tasks[0];
    expect(after.fields[origination.file]).toBeNull();
    expect(after.fields[origination.text]).toBe('Alice');
  });

  it('removes the files of a deleted user, and of every user of a deleted realm', async () => {
    const doomed = await makeRealm(h);
    const [carol, dave] = [await signedInUser(doomed.uid), await signedInUser(doomed.uid)];
    const uuidOf = async (cookie: string, name: string) => (await (await upload(cookie, name, pdf(), {}, doomed.uid)).json()).uuid;
    const carols = [await uuidOf(carol.cookie, 'a.pdf'), await uuidOf(carol.cookie, 'b.pdf')];
    const daves = [await uuidOf(dave.cookie, 'c.pdf')];
    expect(attachmentFiles()).toEqual(expect.arrayContaining([...carols, ...daves]));

    expect((await h.request({ method: 'DELETE', url: `/api/admin/customers/${doomed.uid}/users/${carol.id}` })).statusCode).toBe(204);
    expect(attachmentFiles()).not.toEqual(expect.arrayContaining([carols[0]]));
    expect(attachmentFiles()).not.toEqual(expect.arrayContaining([carols[1]]));
    expect(attachmentFiles()).toEqual(expect.arrayContaining(daves));
    expect((await h.request({ method: 'DELETE', url: `/api/admin/realms/${doomed.uid}` })).statusCode).toBe(204);
    expect(attachmentFiles()).not.toEqual(expect.arrayContaining(daves));
  });

  it('serves a file to an admin with the realm\'s originations permission', async () => {
    const image = png();
    const { uuid, id } = await (await upload(alice.cookie, 'passport.png', image)).json();
    const adminUrl = (uid: string, key: string | number = uuid) => `/api/admin/customers/${uid}/attachments/${key}`;
    const served = await read(adminUrl(realm.uid), { authorization: `Bearer ${h.ownerToken}` });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(Buffer.from(await served.arrayBuffer())).toEqual(image);
    // By the integer id a file answer carries, too (the console's link from a submission); the owner's own route takes only the uuid.
    const byId = await read(adminUrl(realm.uid, id), { authorization: `Bearer ${h.ownerToken}` });
    expect(byId.status).toBe(200);
    expect(Buffer.from(await byId.arrayBuffer())).toEqual(image);
    expect((await read(adminUrl(realm.uid, 2 ** 31), { authorization: `Bearer ${h.ownerToken}` })).status).toBe(404);
    expect((await read(`/api/customers/realms/${realm.uid}/private_upload/answer/${id}`, { cookie: alice.cookie })).status).toBe(404);

    const other = await makeRealm(h);
    const foreignAdmin = await memberToken(h, [{ key: 'realm_admin', target: other.uid }]);
    expect((await read(adminUrl(realm.uid), { authorization: `Bearer ${foreignAdmin}` })).status).toBe(403);
    expect((await read(adminUrl(other.uid), { authorization: `Bearer ${foreignAdmin}` })).status).toBe(404);
    expect((await read(adminUrl(other.uid, id), { authorization: `Bearer ${foreignAdmin}` })).status).toBe(404);
    expect((await read(adminUrl(realm.uid), {})).status).toBe(401);
    const unknown = await read(adminUrl(realm.uid, '00000000-0000-0000-0000-000000000000'), { authorization: `Bearer ${h.ownerToken}` });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ errors: ['Attachment not found'], code: 'ATR_NOT_FOUND' });
  });

  it('leaves no temporary file behind after 20 parallel uploads of 5 MB', async () => {
    const before = attachmentFiles();
    const content = Buffer.alloc(5 * MB, 'line of text\n');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => upload(alice.cookie, `big-${i}.txt`, content)));
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(200));
    const bodies = await Promise.all(answers.map((res) => res.json()));
    expect(bodies.every((body) => body.size === 5 * MB)).toBe(true);
    const after = attachmentFiles();
    expect(after.filter((name) => !before.includes(name)).sort()).toEqual(bodies.map((body) => body.uuid).sort());
    for (const { uuid } of bodies) {
      expect(fs.statSync(path.join(h.config.dataDir, 'uploads', 'attachments', uuid)).size).toBe(5 * MB);
      expect((await remove(uuid, alice.cookie)).status).toBe(200);
    }
    expect(attachmentFiles()).toEqual(before);
  });

  it('keeps a stored file readable by the server\'s user alone (0600)', async () => {
    const res = await upload(alice.cookie, 'mode.png', png());
    expect(res.status).toBe(200);
    const { uuid } = await res.json();
    expect(fs.statSync(path.join(h.config.dataDir, 'uploads', 'attachments', uuid)).mode & 0o777).toBe(0o600);
    expect((await remove(uuid, alice.cookie)).status).toBe(200);
  });

  it('refuses a file name carrying control characters (a terminal escape, a tab) with 422 and keeps nothing', async () => {
    const before = attachmentFiles();
    const boundary = 'XyZ';
    const part = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''evil%1B%5B2J%09.png\r\n`
      + 'Content-Type: image/png\r\n\r\n';
    const res = await h.request({
      method: 'POST', url: `/api/customers/realms/${realm.uid}/private_upload/answer`, token: null,
      headers: { cookie: alice.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([Buffer.from(part), png(), Buffer.from(`\r\n--${boundary}--\r\n`)]),
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors).toContain('the file name must not contain line breaks or other control characters');
    // A line break never reaches the checks: the multipart parser drops such a part, and the file is missing.
    const broken = await h.request({
      method: 'POST', url: `/api/customers/realms/${realm.uid}/private_upload/answer`, token: null,
      headers: { cookie: alice.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([Buffer.from(part.replace('%1B%5B2J%09', '%0D%0AX-Injected%3A%201')), png(), Buffer.from(`\r\n--${boundary}--\r\n`)]),
    });
    expect(broken.statusCode).toBe(422);
    expect(attachmentFiles()).toEqual(before);
  });

  it('answers a multipart body cut short with 400 and keeps nothing, temporary files included', async () => {
    const before = attachmentFiles();
    const boundary = 'XyZ';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`);
    // Many times: a body that fails before the temporary file is even made once left that file behind (about 1 in 300).
    for (let i = 0; i < 100; i++) {
      const res = await h.request({
        method: 'POST', url: `/api/customers/realms/${realm.uid}/private_upload/answer`, token: null,
        headers: { cookie: alice.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.concat([head, Buffer.alloc((1 + (i % 3)) * MB, 'a')]),
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors[0]).toContain('The multipart body');
    }
    expect(attachmentFiles()).toEqual(before);
  });

  it('removes the partial file when the client goes away midway', async () => {
    const before = attachmentFiles();
    const boundary = 'XyZ';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`;
    const { port } = new URL(base);
    const socket = net.connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    socket.write(`POST /api/customers/realms/${realm.uid}/private_upload/answer HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${alice.cookie}\r\n`
      + `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${100 * MB}\r\n\r\n${head}`);
    // 1 MB at a time until the server is writing a temporary file, then the client goes away.
    const partial = () => attachmentFiles().some((name) => name.endsWith('.part'));
    for (let sent = 0; sent < 50 * MB && !partial(); sent += MB) {
      if (!socket.write(Buffer.alloc(MB, 'a'))) await once(socket, 'drain');
    }
    expect(partial()).toBe(true);
    socket.destroy();
    await expect.poll(attachmentFiles, { timeout: 10_000 }).toEqual(before);
  });
});
