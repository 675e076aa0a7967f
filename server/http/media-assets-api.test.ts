import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../openapi/openapi-document.js';
import { request } from '../test-support/api-scenario.js';
import { ResponseChecker } from '../test-support/openapi-responses.js';
import { jpegImage, pngImage } from '../test-support/sample-images.js';
import { type Credentials, makeTeam } from '../test-support/team-fixture.js';
import { reopenOptions, startTestServer, type TestServer } from '../test-support/test-server.js';

/** A form with one part named `file`. */
function fileForm(bytes: Uint8Array, fileName: string): FormData {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'application/octet-stream' }), fileName);
  return form;
}

async function send(
  server: TestServer,
  method: string,
  url: string,
  form: FormData,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.api}${url}`, { method, body: form, headers });
  return { status: response.status, body: await response.json() };
}

/** Posts a PNG of this pixel size (distinct sizes are distinct bytes). */
function uploadPng(server: TestServer, width: number, name: string, query = '', headers: Record<string, string> = {}) {
  return send(server, 'POST', `/uploads${query}`, fileForm(pngImage(width, 2), name), headers);
}

async function servedBytes(server: TestServer, path: string): Promise<Buffer> {
  const response = await fetch(`${server.origin}${path}`);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

async function createArticle(
  server: TestServer,
  fields: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const { response, body, text } = await request(server, 'POST', '/cms/articles', {
    json: { status: 'draft', published_at: '2026-06-01 10:00:00', ...fields },
    headers,
  });
  expect(response.status, text).toBe(201);
  return body;
}

describe('the media library: uploads are assets', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('makes every upload an asset with its name, kind, size, pixels and hash', async () => {
    const { status, body } = await uploadPng(server, 5, 'harbour at dawn.png');
    expect(status).toBe(201);
    expect(body).toEqual({
      id: expect.any(String),
      path: expect.stringMatching(/^\/media\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.png$/),
      file_name: 'harbour at dawn.png',
      type: 'image/png',
      size: pngImage(5, 2).length,
      width: 5,
      height: 2,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      alt: '',
      caption: '',
      credit: '',
      focal: { x: 0.5, y: 0.5 },
      folder: null,
      uploaded_by: 'tester',
      uploaded_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const read = await request(server, 'GET', `/media/${body.id}`);
    expect(read.response.status).toBe(200);
    expect(read.body).toEqual({ ...body, used_in: [], used_elsewhere: 0 });
  });

  it('gives the same asset back for the same bytes, and a second one only when asked', async () => {
    const first = await uploadPng(server, 6, 'one.png');
    const again = await uploadPng(server, 6, 'two.png');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const listed = await request(server, 'GET', '/media?search=two.png');
    expect(listed.body.filtered).toBe(0);
    const duplicate = await uploadPng(server, 6, 'two.png', '?duplicate=true');
    expect(duplicate.status).toBe(201);
    expect(duplicate.body.id).not.toBe(first.body.id);
    expect(duplicate.body.path).not.toBe(first.body.path);
    expect(duplicate.body.hash).toBe(first.body.hash);
    const refused = await uploadPng(server, 6, 'x.png', '?copies=2');
    expect(refused.status).toBe(400);
  });

  it('gives parallel uploads of the same bytes one asset', async () => {
    const answers = await Promise.all([1, 2, 3].map((n) => uploadPng(server, 9, `same-${n}.png`)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    const listed = await request(server, 'GET', `/media?search=same-`);
    expect(listed.body.filtered).toBe(1);
  });

  it('records descriptions, replacements and deletes in the change feed', async () => {
    const asset = (await uploadPng(server, 91, 'feed.png')).body;
    const since = (await request(server, 'GET', '/changes?since=0&limit=1000')).body.next;
    await request(server, 'PATCH', `/media/${asset.id}`, { json: { alt: 'Fed' } });
    await send(server, 'PUT', `/media/${asset.id}/file`, fileForm(pngImage(92, 2), 'feed2.png'));
    await request(server, 'DELETE', `/media/${asset.id}`);
    const changes = (await request(server, 'GET', `/changes?since=${since}`)).body.changes;
    expect(changes.map((change: any) => [change.type, change.id, change.action])).toEqual([
      ['media', asset.path, 'media'],
      ['media', asset.path, 'media'],
      ['media', asset.path, 'delete'],
    ]);
  });

  it('answers 404 for an asset that is not there, and refuses hostile parameters changing nothing', async () => {
    for (const [method, url] of [
      ['GET', '/media/nope'],
      ['PATCH', '/media/nope'],
      ['DELETE', '/media/nope'],
    ]) {
      const answer = await request(server, method, url, method === 'PATCH' ? { json: { alt: 'x' } } : {});
      expect(answer.response.status, `${method} ${url}`).toBe(404);
    }
    expect((await send(server, 'PUT', '/media/nope/file', fileForm(pngImage(93, 2), 'x.png'))).status).toBe(404);
    const asset = (await uploadPng(server, 94, 'hostile.png')).body;
    for (const url of [
      `/media/${asset.id}?force=yes`,
      `/media/${asset.id}?force=true&force=true`,
      `/media/${asset.id}?all=1`,
    ]) {
      expect((await request(server, 'DELETE', url)).response.status, url).toBe(400);
    }
    expect((await request(server, 'GET', `/media/${asset.id}`)).response.status).toBe(200);
  });

  it('lists, searches and filters with totals like rows', async () => {
    const a = await uploadPng(server, 11, 'Lighthouse day.png');
    const b = await uploadPng(server, 12, 'lighthouse night.png');
    const c = (await send(server, 'POST', '/uploads', fileForm(jpegImage(), 'beach.jpg'))).body;
    await request(server, 'PATCH', `/media/${c.id}`, {
      json: { alt: 'A lighthouse seen from the beach', folder: 'coast' },
    });
    await request(server, 'PATCH', `/media/${b.body.id}`, { json: { caption: 'Night 50%_off', folder: 'coast' } });

    const all = await request(server, 'GET', '/media');
    expect(all.response.status).toBe(200);
    expect(all.body.total).toBe(all.body.filtered);
    expect(all.body.count).toBe(all.body.assets.length);
    // Newest first by default.
    expect(all.body.assets[0].id).toBe(c.id);

    const search = await request(server, 'GET', '/media?search=LIGHTHOUSE&order=file_name');
    expect(search.body.assets.map((asset: any) => asset.id)).toEqual([c.id, a.body.id, b.body.id]);
    expect(search.body.filtered).toBe(3);
    expect(search.body.total).toBe(all.body.total);
    // `%` and `_` are letters in a search, not patterns.
    const literal = await request(server, 'GET', `/media?search=${encodeURIComponent('50%_')}`);
    expect(literal.body.assets.map((asset: any) => asset.id)).toEqual([b.body.id]);
    const noMatch = await request(server, 'GET', `/media?search=${encodeURIComponent('%')}`);
    expect(noMatch.body.assets.map((asset: any) => asset.id)).toEqual([b.body.id]);

    const folder = await request(server, 'GET', '/media?folder=coast&order=file_name&desc=true');
    expect(folder.body.assets.map((asset: any) => asset.id)).toEqual([b.body.id, c.id]);
    const jpegs = await request(server, 'GET', '/media?type=image/jpeg');
    expect(jpegs.body.assets.map((asset: any) => asset.id)).toEqual([c.id]);
    const images = await request(server, 'GET', '/media?type=image/');
    expect(images.body.filtered).toBe(all.body.total);

    const page = await request(server, 'GET', '/media?search=lighthouse&order=file_name&limit=1&offset=1');
    expect(page.body).toMatchObject({ total: all.body.total, filtered: 3, count: 1 });
    expect(page.body.assets[0].id).toBe(a.body.id);

    for (const bad of ['limit=-1', 'limit=5000', 'order=alt', 'desc=maybe', 'type=*', 'unused=perhaps', 'sort=size']) {
      const refused = await request(server, 'GET', `/media?${bad}`);
      expect(refused.response.status, bad).toBe(400);
    }
  });

  it('filters by use, and tells where an asset is used', async () => {
    const used = (await uploadPng(server, 21, 'used.png')).body;
    const unused = (await uploadPng(server, 22, 'unused.png')).body;
    const article = await createArticle(server, { title: 'Harbour', image: used.path });
    const inBody = await createArticle(server, { title: 'Essay', body: `Look: ![x](${used.path})` });

    const notUsed = await request(server, 'GET', '/media?unused=true');
    const notUsedIds = notUsed.body.assets.map((asset: any) => asset.id);
    expect(notUsedIds).toContain(unused.id);
    expect(notUsedIds).not.toContain(used.id);
    const inUse = await request(server, 'GET', '/media?unused=false');
    expect(inUse.body.assets.map((asset: any) => asset.id)).toEqual([used.id]);
    expect(inUse.body.filtered).toBe(1);

    const detail = await request(server, 'GET', `/media/${used.id}`);
    expect(detail.body.used_in).toEqual(
      expect.arrayContaining([
        { type: 'articles', table: 'articles', row: article.id, fields: ['image'] },
        { type: 'articles', table: 'articles', row: inBody.id, fields: ['body'] },
      ]),
    );
    expect(detail.body.used_in).toHaveLength(2);
  });

  it('validates a description: 400 with field problems, changing nothing', async () => {
    const asset = (await uploadPng(server, 31, 'patch.png')).body;
    const changed = await request(server, 'PATCH', `/media/${asset.id}`, {
      json: { alt: '  A quay  ', caption: 'Morning', credit: 'Ann', focal: { x: 0.25, y: 1 }, folder: 'harbour' },
    });
    expect(changed.response.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({
      alt: 'A quay',
      caption: 'Morning',
      credit: 'Ann',
      focal: { x: 0.25, y: 1 },
      folder: 'harbour',
      path: asset.path,
    });

    const cases: [unknown, Record<string, unknown>][] = [
      [{ focal: { x: 1.5, y: 0 } }, { 'focal.x': { code: 'out_of_range', min: 0, max: 1 } }],
      [{ focal: { x: 0.5 } }, { 'focal.y': { code: 'not_a_number' } }],
      [{ focal: [0.5, 0.5] }, { focal: { code: 'not_an_object' } }],
      [{ alt: 7 }, { alt: { code: 'not_text' } }],
      [{ alt: 'x'.repeat(1001) }, { alt: { code: 'too_long', max: 1000 } }],
      [{ caption: 'a\u0000b' }, { caption: { code: 'nul_character' } }],
      [{ path: '/media/elsewhere.png', alt: 'ok' }, { body: { code: 'unknown_members', members: ['path'] } }],
      [[], { body: { code: 'not_an_object' } }],
    ];
    for (const [json, problems] of cases) {
      const refused = await request(server, 'PATCH', `/media/${asset.id}`, { json });
      expect(refused.response.status, JSON.stringify(json)).toBe(400);
      expect(refused.body.error.problems).toEqual(problems);
    }
    const after = await request(server, 'GET', `/media/${asset.id}`);
    expect(after.body).toMatchObject({ alt: 'A quay', focal: { x: 0.25, y: 1 }, folder: 'harbour' });

    const cleared = await request(server, 'PATCH', `/media/${asset.id}`, { json: { folder: '' } });
    expect(cleared.body.folder).toBe(null);
    const missing = await request(server, 'PATCH', '/media/no-such-asset', { json: { alt: 'x' } });
    expect(missing.response.status).toBe(404);
  });

  it('replaces the file keeping the asset, its path and every reference', async () => {
    const asset = (await uploadPng(server, 41, 'before.png')).body;
    const article = await createArticle(server, { title: 'Replaced', image: asset.path });
    const replaced = await send(server, 'PUT', `/media/${asset.id}/file`, fileForm(pngImage(43, 3), 'after.png'));
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      id: asset.id,
      path: asset.path,
      file_name: 'after.png',
      width: 43,
      height: 3,
    });
    expect(replaced.body.hash).not.toBe(asset.hash);
    expect(await servedBytes(server, asset.path)).toEqual(pngImage(43, 3));
    const row = await request(server, 'GET', `/cms/articles/${article.id}`);
    expect(row.body.rows[0].image).toBe(asset.path);

    // Another format would not match the path's extension: refused, the file kept as it was.
    const refused = await send(server, 'PUT', `/media/${asset.id}/file`, fileForm(jpegImage(), 'x.jpg'));
    expect(refused.status).toBe(415);
    expect(await servedBytes(server, asset.path)).toEqual(pngImage(43, 3));
    const notAnImage = await send(server, 'PUT', `/media/${asset.id}/file`, fileForm(Buffer.from('hello'), 'x.png'));
    expect(notAnImage.status).toBe(415);
    expect((await request(server, 'GET', `/media/${asset.id}`)).body.hash).toBe(replaced.body.hash);
  });

  it('refuses to delete an asset rows use (409 naming them) unless forced', async () => {
    const asset = (await uploadPng(server, 51, 'delete.png')).body;
    const article = await createArticle(server, { title: 'Keeps it', image: asset.path });
    const refused = await request(server, 'DELETE', `/media/${asset.id}`);
    expect(refused.response.status).toBe(409);
    expect(refused.body.error.detail).toEqual({ code: 'media_in_use', count: 1, rows: [`articles/${article.id}`] });
    expect(refused.body.error.message).toContain(`articles/${article.id}`);
    expect(await servedBytes(server, asset.path)).toEqual(pngImage(51, 2));

    const forced = await request(server, 'DELETE', `/media/${asset.id}?force=true`);
    expect(forced.response.status).toBe(200);
    expect((await request(server, 'GET', `/media/${asset.id}`)).response.status).toBe(404);
    expect((await fetch(`${server.origin}${asset.path}`)).status).toBe(404);

    const free = (await uploadPng(server, 52, 'free.png')).body;
    expect((await request(server, 'DELETE', `/media/${free.id}`)).response.status).toBe(200);
    // Its bytes are new again: the next upload of them is a new asset.
    expect((await uploadPng(server, 52, 'free.png')).status).toBe(201);
  });

  it('gives row reads a media member: alt, pixels and focal point by path, one query a page', async () => {
    const asset = (await uploadPng(server, 61, 'layout.png')).body;
    await request(server, 'PATCH', `/media/${asset.id}`, { json: { alt: 'Boats', focal: { x: 0.2, y: 0.8 } } });
    const article = await createArticle(server, { title: 'Laid out', image: asset.path });
    const plain = await createArticle(server, { title: 'No image' });
    const layout = {
      [asset.path]: { alt: 'Boats', width: 61, height: 2, focal: { x: 0.2, y: 0.8 }, hash: asset.hash },
    };

    const one = await request(server, 'GET', `/cms/articles/${article.id}`);
    const row = one.body.rows[0];
    expect(row.image).toBe(asset.path);
    expect(row.media).toEqual(layout);

    const list = await request(server, 'GET', '/cms/articles?limit=1000');
    const listed = list.body.rows.find((candidate: any) => candidate.id === article.id);
    expect(listed.media).toEqual(layout);
    expect(list.body.rows.find((candidate: any) => candidate.id === plain.id)).not.toHaveProperty('media');

    // A row read sent back as a write is taken: `media` is the server's, like the system fields.
    const { media: _media, ...fields } = row;
    const written = await request(server, 'PUT', `/cms/articles/${article.id}`, { json: { ...fields, media: layout } });
    expect(written.response.status, written.text).toBe(200);
  });
});

describe('the media library: roles', () => {
  let server: TestServer;
  let team: Credentials;
  beforeAll(async () => {
    server = await startTestServer();
    team = await makeTeam(server);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('lets authors change their own uploads, editors any, viewers none', async () => {
    const mine = (await uploadPng(server, 71, 'aldo.png', '', team.author)).body;
    const theirs = (await uploadPng(server, 72, 'edna.png', '', team.editor)).body;
    expect(mine.uploaded_by).toBe('aldo');
    expect(theirs.uploaded_by).toBe('edna');

    const patch = (id: string, headers: Record<string, string>) =>
      request(server, 'PATCH', `/media/${id}`, { json: { alt: 'described' }, headers });
    expect((await patch(mine.id, team.author)).response.status).toBe(200);
    expect((await patch(theirs.id, team.author)).response.status).toBe(403);
    expect((await patch(mine.id, team.editor)).response.status).toBe(200);
    expect((await patch(mine.id, team.viewer)).response.status).toBe(403);
    expect((await patch(mine.id, team.none)).response.status).toBe(401);

    const replace = (id: string, headers: Record<string, string>) =>
      send(server, 'PUT', `/media/${id}/file`, fileForm(pngImage(73, 2), 'r.png'), headers);
    expect((await replace(theirs.id, team.author)).status).toBe(403);
    expect((await replace(mine.id, team.viewer)).status).toBe(403);
    expect((await uploadPng(server, 74, 'v.png', '', team.viewer)).status).toBe(403);

    expect((await request(server, 'GET', '/media', { headers: team.viewer })).response.status).toBe(200);
    expect((await request(server, 'GET', `/media/${mine.id}`, { headers: team.viewer })).response.status).toBe(200);

    expect((await request(server, 'DELETE', `/media/${theirs.id}`, { headers: team.author })).response.status).toBe(
      403,
    );
    expect((await request(server, 'DELETE', `/media/${mine.id}`, { headers: team.viewer })).response.status).toBe(403);
    expect((await request(server, 'DELETE', `/media/${mine.id}`, { headers: team.author })).response.status).toBe(200);
    expect((await request(server, 'DELETE', `/media/${theirs.id}`, { headers: team.editor })).response.status).toBe(
      200,
    );
    const after = await request(server, 'GET', `/media/${theirs.id}`, { headers: team.admin });
    expect(after.response.status).toBe(404);
  });

  it('counts, without naming, the rows of types a limited credential may not read', async () => {
    const asset = (await uploadPng(server, 75, 'limited.png', '', team.editor)).body;
    const made = await request(server, 'POST', '/cms/articles', {
      json: { status: 'draft', title: 'Hidden', published_at: '2026-06-01 10:00:00', image: asset.path },
      headers: team.editor,
    });
    expect(made.response.status, made.text).toBe(201);
    const limited = await request(server, 'GET', `/media/${asset.id}`, { headers: team.news_token });
    expect(limited.body).toMatchObject({ used_in: [], used_elsewhere: 1 });
    const refused = await request(server, 'DELETE', `/media/${asset.id}`, { headers: team.news_token });
    expect(refused.response.status).toBe(409);
    expect(refused.body.error.detail).toEqual({ code: 'media_in_use', count: 1, rows: [] });
    const full = await request(server, 'GET', `/media/${asset.id}`, { headers: team.editor });
    expect(full.body.used_in).toEqual([{ type: 'articles', table: 'articles', row: made.body.id, fields: ['image'] }]);
  });
});

describe('the media library: uploads older than it', () => {
  it('become assets when a server starts, with pixels and hash read from their bytes', async () => {
    const first = await startTestServer();
    let second: TestServer | null = null;
    try {
      const kept = (await uploadPng(first, 81, 'old.png')).body;
      // As before migration 032: the file is stored, no asset describes it.
      await sql`delete from quire_assets`.execute(first.database.db);
      expect((await request(first, 'GET', '/media')).body.total).toBe(0);
      await first.stop();
      second = await startTestServer(reopenOptions(first));
      const listed = await request(second, 'GET', '/media');
      expect(listed.body.total).toBe(1);
      expect(listed.body.assets[0]).toMatchObject({
        path: kept.path,
        file_name: kept.path.slice(kept.path.lastIndexOf('/') + 1),
        type: 'image/png',
        size: kept.size,
        width: 81,
        height: 2,
        hash: kept.hash,
        alt: '',
        uploaded_by: null,
      });
    } finally {
      await (second ?? first).dispose();
    }
  });
});

describe('the media library: answers match the OpenAPI document', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('for uploads, the list, one asset, a description, a replace, a refused and a forced delete, and rows', async () => {
    const checker = new ResponseChecker((await request(server, 'GET', '/openapi.json')).body as OpenApiDocument);
    const check = (method: string, path: string, answer: { status: number; body: unknown }) =>
      expect(checker.problems(method, path, answer.status, answer.body), `${method} ${path}`).toEqual([]);
    const call = async (method: string, path: string, json?: unknown) => {
      const { response, body } = await request(server, method, path, json === undefined ? {} : { json });
      check(method, path, { status: response.status, body });
      return { status: response.status, body };
    };
    const created = await uploadPng(server, 101, 'checked.png');
    check('POST', '/uploads', created);
    const again = await uploadPng(server, 101, 'checked.png');
    expect(again.status).toBe(200);
    check('POST', '/uploads', again);
    const id = created.body.id;
    await call('GET', '/media?search=checked');
    const article = await createArticle(server, { title: 'Checked', image: created.body.path });
    expect((await call('GET', `/media/${id}`)).body.used_in).toHaveLength(1);
    await call('PATCH', `/media/${id}`, { alt: 'Checked', focal: { x: 0, y: 1 } });
    expect((await call('PATCH', `/media/${id}`, { focal: { x: 2, y: 0 } })).status).toBe(400);
    const replaced = await send(server, 'PUT', `/media/${id}/file`, fileForm(pngImage(102, 2), 'c.png'));
    check('PUT', `/media/${id}/file`, replaced);
    const row = await call('GET', `/cms/articles/${article.id}`);
    expect(row.body.rows[0].media[created.body.path].alt).toBe('Checked');
    await call('GET', '/cms/articles');
    expect((await call('DELETE', `/media/${id}`)).status).toBe(409);
    expect((await call('DELETE', `/media/${id}?force=true`)).status).toBe(200);
    expect((await call('GET', `/media/${id}`)).status).toBe(404);
  });
});
