import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../openapi/openapi-document.js';
import { request } from '../test-support/api-scenario.js';
import { ResponseChecker } from '../test-support/openapi-responses.js';
import { pngImage } from '../test-support/sample-images.js';
import { type Credentials, makeTeam } from '../test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * An asset read by the path a row holds (`GET /api/media/by-path?path=`), and the `media` member
 * of row reads covering every image a row shows: image fields, rich text's `<img>`, Markdown
 * images and images inside blocks.
 */

let server: TestServer;
let team: Credentials;

beforeAll(async () => {
  server = await startTestServer();
  team = await makeTeam(server);
});
afterAll(() => server?.dispose());

/** Uploads a PNG of this width (distinct widths are distinct bytes) and answers its asset. */
async function uploadPng(width: number, name: string, headers: Record<string, string> = team.admin) {
  const form = new FormData();
  form.append('file', new Blob([pngImage(width, 3)], { type: 'application/octet-stream' }), name);
  const response = await fetch(`${server.api}/uploads`, { method: 'POST', body: form, headers });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; path: string };
}

const byPath = (path: string, headers: Record<string, string> = team.admin) =>
  request(server, 'GET', `/media/by-path?path=${encodeURIComponent(path)}`, { headers });

describe('GET /api/media/by-path', () => {
  it('answers the asset a row names, with its description and where it is used', async () => {
    const asset = await uploadPng(31, 'harbour.png');
    await request(server, 'PATCH', `/media/${asset.id}`, {
      json: { alt: 'The harbour', focal: { x: 0.1, y: 0.9 } },
      headers: team.admin,
    });
    const made = await request(server, 'POST', '/cms/articles', {
      json: { status: 'draft', title: 'Harbour', published_at: '2026-06-01 10:00:00', image: asset.path },
      headers: team.admin,
    });
    expect(made.response.status, made.text).toBe(201);

    const found = await byPath(asset.path);
    expect(found.response.status, found.text).toBe(200);
    expect(found.body).toMatchObject({
      id: asset.id,
      path: asset.path,
      alt: 'The harbour',
      width: 31,
      height: 3,
      focal: { x: 0.1, y: 0.9 },
      used_in: [{ type: 'articles', table: 'articles', row: made.body.id, fields: ['image'] }],
      used_elsewhere: 0,
    });
    expect(found.body).toEqual((await request(server, 'GET', `/media/${asset.id}`, { headers: team.admin })).body);
  });

  it('answers 404 for a well-formed path no asset has', async () => {
    const missing = await byPath('/media/2026/05/019a0000-0000-7000-8000-000000000000.png');
    expect(missing.response.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
  });

  it('refuses odd input with a 400, before looking anything up', async () => {
    const asset = await uploadPng(32, 'odd.png');
    const relative = asset.path.slice('/media/'.length);
    const refused = [
      '/media/by-path',
      '/media/by-path?path=',
      `/media/by-path?path=${encodeURIComponent(asset.path)}&path=${encodeURIComponent(asset.path)}`,
      `/media/by-path?path[a]=${encodeURIComponent(asset.path)}`,
      `/media/by-path?path=${encodeURIComponent(asset.path)}&force=true`,
      `/media/by-path?path=${encodeURIComponent(relative)}`,
      `/media/by-path?path=${encodeURIComponent(`https://example.com${asset.path}`)}`,
      `/media/by-path?path=${encodeURIComponent(`${asset.path}?w=300`)}`,
      `/media/by-path?path=${encodeURIComponent('/media/../../etc/passwd')}`,
      `/media/by-path?path=${encodeURIComponent('/media/2026/05/../../../quire.db')}`,
      `/media/by-path?path=${encodeURIComponent(`/media/2026/05/%2e%2e%2f${relative.slice(8)}`)}`,
      `/media/by-path?path=${encodeURIComponent(`/media/2026/13/${relative.slice(8)}`)}`,
      `/media/by-path?path=${encodeURIComponent(asset.path.toUpperCase())}`,
      `/media/by-path?path=${encodeURIComponent(`${asset.path}\u0000`)}`,
      `/media/by-path?path=${'a'.repeat(5000)}`,
    ];
    for (const url of refused) {
      const answer = await request(server, 'GET', url, { headers: team.admin });
      expect(answer.response.status, url).toBe(400);
      expect(answer.body.error.code, url).toBe('bad_request');
    }
    const wrongMethod = await request(server, 'POST', `/media/by-path?path=${encodeURIComponent(asset.path)}`, {
      headers: team.admin,
    });
    expect(wrongMethod.response.status).toBe(405);
  });

  it('follows the roles of the other media reads', async () => {
    const asset = await uploadPng(33, 'roles.png', team.editor);
    const made = await request(server, 'POST', '/cms/articles', {
      json: { status: 'draft', title: 'Roles', published_at: '2026-06-01 10:00:00', image: asset.path },
      headers: team.editor,
    });
    expect(made.response.status, made.text).toBe(201);
    for (const who of ['admin', 'editor', 'author', 'viewer', 'viewer_token']) {
      expect((await byPath(asset.path, team[who])).response.status, who).toBe(200);
    }
    expect((await byPath(asset.path, team.none)).response.status).toBe(401);
    // A credential limited to other types sees the asset and only a count of the rows using it.
    const limited = await byPath(asset.path, team.news_token);
    expect(limited.response.status).toBe(200);
    expect(limited.body).toMatchObject({ used_in: [], used_elsewhere: 1 });
    const viewerWrite = await request(server, 'PATCH', `/media/by-path?path=${encodeURIComponent(asset.path)}`, {
      json: { alt: 'x' },
      headers: team.viewer,
    });
    expect(viewerWrite.response.status).toBe(403);
  });
});

describe('the media member of row reads', () => {
  it('covers images in rich text, Markdown and blocks, each path once', async () => {
    const created = await request(server, 'POST', '/cms-content', {
      headers: team.admin,
      json: {
        title: 'Stories',
        table: 'stories',
        columns: [
          { name: 'title', label: 'Title', type: 'text', required: true },
          { name: 'body', label: 'Body', type: 'richtext', required: false },
          { name: 'notes', label: 'Notes', type: 'markdown', required: false },
          {
            name: 'sections',
            label: 'Sections',
            type: 'blocks',
            required: false,
            blocks: [
              {
                name: 'figure',
                label: 'Figure',
                columns: [{ name: 'image', label: 'Image', type: 'image', required: false }],
              },
              {
                name: 'prose',
                label: 'Prose',
                columns: [{ name: 'text', label: 'Text', type: 'richtext', required: false }],
              },
            ],
          },
        ],
      },
    });
    expect(created.response.status, created.text).toBe(201);
    const [inBody, inNotes, inFigure, inProse, undescribed] = [
      await uploadPng(41, 'body.png'),
      await uploadPng(42, 'notes.png'),
      await uploadPng(43, 'figure.png'),
      await uploadPng(44, 'prose.png'),
      await uploadPng(45, 'plain.png'),
    ];
    for (const [asset, alt] of [
      [inBody, 'In the body'],
      [inNotes, 'In the notes'],
      [inFigure, 'In a figure'],
      [inProse, 'In prose'],
    ] as const) {
      expect(
        (await request(server, 'PATCH', `/media/${asset.id}`, { json: { alt }, headers: team.admin })).response.status,
      ).toBe(200);
    }
    const story = await request(server, 'POST', '/cms/stories', {
      headers: team.admin,
      json: {
        title: 'Everywhere',
        body: `<p>Look <img src="${inBody.path}" alt="inline"> and again <img src="${inBody.path}"></p>`,
        notes: `![notes](${inNotes.path}) and a link to [a file](${undescribed.path})`,
        sections: [
          { type: 'figure', image: inFigure.path },
          { type: 'prose', text: `<p><img src="${inProse.path}"></p>` },
        ],
      },
    });
    expect(story.response.status, story.text).toBe(201);
    const plain = await request(server, 'POST', '/cms/stories', {
      json: { title: 'No images', body: '<p>Text</p>' },
      headers: team.admin,
    });

    const layout = (asset: { path: string }, alt: string, width: number) => [
      asset.path,
      expect.objectContaining({ alt, width, height: 3, focal: { x: 0.5, y: 0.5 } }),
    ];
    const expected = Object.fromEntries([
      layout(inBody, 'In the body', 41),
      layout(inNotes, 'In the notes', 42),
      layout(undescribed, '', 45),
      layout(inFigure, 'In a figure', 43),
      layout(inProse, 'In prose', 44),
    ]);
    const one = await request(server, 'GET', `/cms/stories/${story.body.id}`, { headers: team.admin });
    expect(one.body.rows[0].media).toEqual(expected);
    const list = await request(server, 'GET', '/cms/stories', { headers: team.admin });
    const rows = list.body.rows as { id: string; media?: unknown }[];
    expect(rows.find((row) => row.id === story.body.id)?.media).toEqual(expected);
    expect(rows.find((row) => row.id === plain.body.id)).not.toHaveProperty('media');

    // The document (and so the generated types) describes the member for such a type, and the answers match it.
    const document = (await request(server, 'GET', '/openapi.json', { headers: team.admin })).body as OpenApiDocument;
    const schemas = document.components.schemas as Record<string, { properties: Record<string, unknown> }>;
    expect(schemas.Story.properties.media).toMatchObject({
      additionalProperties: { $ref: '#/components/schemas/ImageLayout' },
    });
    const checker = new ResponseChecker(document);
    expect(checker.problems('GET', `/cms/stories/${story.body.id}`, 200, one.body)).toEqual([]);
    expect(checker.problems('GET', '/cms/stories', 200, list.body)).toEqual([]);
    const found = await byPath(inProse.path);
    expect(checker.problems('GET', `/media/by-path?path=${inProse.path}`, 200, found.body)).toEqual([]);
    const missing = await byPath('/media/2026/05/019a0000-0000-7000-8000-000000000000.png');
    expect(checker.problems('GET', '/media/by-path', 404, missing.body)).toEqual([]);
  });
});
