import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnDescriptor, ColumnType } from '../../common/api-contract.js';
import { findUnusedMedia, PRUNE_GRACE_MS } from '../media/media-prune.js';
import { request } from '../test-support/api-scenario.js';
import { blocksColumn, blocksOf, blockType, TEXT_BLOCK, textColumn } from '../test-support/block-columns.js';
import { gifImage, pngImage } from '../test-support/sample-images.js';
import { upload } from '../test-support/site-fixture.js';
import { sessionCookie, sessionHeaders, TEAM_PASSWORD } from '../test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * `blocks` columns through the API: nested values validated by each column's field type with
 * problems at their paths, ids given and kept unique, relations and images inside blocks counted
 * as references, descriptors refused when too deep or ill-formed, and the OpenAPI union.
 */

const SECTIONS = blocksColumn('sections', 'Sections', [
  blockType('hero', 'Hero', [
    textColumn('heading', true),
    { name: 'image', label: 'Image', type: 'image', required: false },
    { name: 'author', label: 'Author', type: 'relation', required: false, target: 'authors' },
    {
      name: 'tone',
      label: 'Tone',
      type: 'select',
      required: false,
      options: [
        { id: 'light', text: 'Light' },
        { id: 'dark', text: 'Dark' },
      ],
    },
  ]),
  TEXT_BLOCK,
  blockType('gallery', 'Gallery', [
    blocksColumn(
      'items',
      'Items',
      [
        blockType('photo', 'Photo', [
          { name: 'image', label: 'Image', type: 'image', required: true },
          textColumn('caption'),
        ]),
      ],
      { required: true },
    ),
  ]),
  blockType('cta', 'Call to action', [
    {
      name: 'kind',
      label: 'Kind',
      type: 'select',
      required: true,
      options: [
        { id: 'link', text: 'Link' },
        { id: 'none', text: 'None' },
      ],
    },
    { ...textColumn('url', true), when: { field: 'kind', is: ['link'] } },
  ]),
]);

let server: TestServer;
let authorId: string;
let otherAuthorId: string;
let imageA: string;
let imageB: string;

async function createType(json: unknown) {
  return request(server, 'POST', '/cms-content', { json });
}

async function createPage(json: unknown) {
  return request(server, 'POST', '/cms/pages', { json });
}

beforeAll(async () => {
  server = await startTestServer();
  const authors = await createType({ title: 'Authors', table: 'authors', columns: [textColumn('name', true)] });
  expect(authors.response.status, JSON.stringify(authors.body)).toBe(201);
  const pages = await createType({ title: 'Pages', table: 'pages', columns: [textColumn('title', true), SECTIONS] });
  expect(pages.response.status, JSON.stringify(pages.body)).toBe(201);
  authorId = (await request(server, 'POST', '/cms/authors', { json: { name: 'Ada' } })).body.id;
  otherAuthorId = (await request(server, 'POST', '/cms/authors', { json: { name: 'Grace' } })).body.id;
  imageA = await upload(server.origin, pngImage(), 'a.png');
  imageB = await upload(server.origin, gifImage(), 'b.gif');
});
afterAll(() => server?.dispose());

describe('blocks values', () => {
  it('stores an ordered list of blocks, giving ids to blocks sent without, and reads it back', async () => {
    const sections = [
      { type: 'hero', heading: 'Welcome', image: imageA, author: authorId, tone: 'dark' },
      { type: 'text', id: 'intro', body: '# Hello' },
      { type: 'gallery', items: [{ type: 'photo', image: imageA, caption: 'First' }] },
    ];
    const created = await createPage({ title: 'Home', sections });
    expect(created.response.status, JSON.stringify(created.body)).toBe(201);
    const { body } = await request(server, 'GET', `/cms/pages/${created.body.id}`);
    const read = body.rows[0].sections;
    expect(read.map((block: { type: string }) => block.type)).toEqual(['hero', 'text', 'gallery']);
    expect(read[1].id).toBe('intro');
    expect(read[0].id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(read[0]).toMatchObject({ heading: 'Welcome', image: imageA, tone: 'dark' });
    // A relation inside a block reads as a relation column does: the row's id, title and slug.
    expect(read[0].author).toEqual({ id: authorId, title: 'Ada', slug: null });
    expect(read[2].items[0]).toMatchObject({ type: 'photo', image: imageA, caption: 'First' });
    expect(read[2].items[0].id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    // Kept as sent: a write of what was read changes no id.
    const again = await request(server, 'PUT', `/cms/pages/${created.body.id}`, { json: { sections: read } });
    expect(again.response.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.sections.map((block: { id: string }) => block.id)).toEqual(read.map((b: { id: string }) => b.id));
  });

  it('refuses invalid fields inside blocks, naming each place, and writes nothing', async () => {
    const before = (await request(server, 'GET', '/cms/pages')).body.rows.length;
    const { response, body } = await createPage({
      title: 'Broken',
      sections: [
        { type: 'hero', id: 'x', tone: 'neon' },
        { type: 'text', id: 'x', body: 'dup id' },
        { type: 'video', url: 'https://example.com' },
        {
          type: 'gallery',
          items: [
            { type: 'photo', caption: 'no image' },
            { type: 'photo', image: '/etc/passwd' },
          ],
        },
        { type: 'text', body: 'ok', extra: 1 },
      ],
    });
    expect(response.status).toBe(400);
    expect(body.error.problems).toEqual({
      'sections[0].heading': { code: 'required' },
      'sections[0].tone': { code: 'not_an_option', options: ['light', 'dark'] },
      'sections[1].id': { code: 'repeated_block_id', id: 'x' },
      'sections[2].type': { code: 'not_a_block_type', types: ['hero', 'text', 'gallery', 'cta'] },
      'sections[3].items[0].image': { code: 'required' },
      'sections[3].items[1].image': { code: 'not_a_media_path' },
      'sections[4].extra': { code: 'not_a_field', table: 'text' },
    });
    expect(body.error.fields['sections[0].heading']).toBe('is required');
    expect((await request(server, 'GET', '/cms/pages')).body.rows.length).toBe(before);
  });

  it('refuses a value that is not a list of blocks, and a bad block id', async () => {
    for (const sections of ['not json', { type: 'text' }, [1, 2], 'true']) {
      const { response, body } = await createPage({ title: 'Odd', sections });
      expect(response.status).toBe(400);
      expect(body.error.problems.sections).toEqual({ code: 'not_a_block_list' });
    }
    const { response, body } = await createPage({ title: 'Odd', sections: [{ type: 'text', id: '../x' }] });
    expect(response.status).toBe(400);
    expect(body.error.problems['sections[0].id']).toEqual({ code: 'not_a_block_id' });
  });

  it('requires a block field only while its condition holds', async () => {
    const refused = await createPage({ title: 'Cta', sections: [{ type: 'cta', kind: 'link' }] });
    expect(refused.response.status).toBe(400);
    expect(refused.body.error.problems).toEqual({ 'sections[0].url': { code: 'required' } });
    const hidden = await createPage({ title: 'Cta', sections: [{ type: 'cta', kind: 'none' }] });
    expect(hidden.response.status, JSON.stringify(hidden.body)).toBe(201);
  });

  it('refuses a relation inside a block to a row that does not exist', async () => {
    const { response, body } = await createPage({
      title: 'Ghost',
      sections: [{ type: 'hero', heading: 'Hi', author: 'no-such-author' }],
    });
    expect(response.status).toBe(400);
    expect(body.error.problems['sections[0].author']).toEqual({
      code: 'no_such_row',
      table: 'authors',
      id: 'no-such-author',
    });
  });
});

describe('references inside blocks', () => {
  it('refuses to delete a row a block points at, until the block lets go of it', async () => {
    const page = await createPage({
      title: 'About',
      sections: [
        { type: 'text', body: 'x' },
        { type: 'hero', heading: 'By Grace', author: otherAuthorId },
      ],
    });
    expect(page.response.status, JSON.stringify(page.body)).toBe(201);
    const refused = await request(server, 'DELETE', `/cms/authors/${otherAuthorId}`);
    expect(refused.response.status).toBe(409);
    expect(refused.body.error.references).toEqual([
      { table: 'pages', id: page.body.id, title: 'About', column: 'sections' },
    ]);
    expect((await request(server, 'GET', `/cms/authors/${otherAuthorId}`)).response.status).toBe(200);
    const cleared = await request(server, 'PUT', `/cms/pages/${page.body.id}`, {
      json: { sections: [{ type: 'text', body: 'x' }] },
    });
    expect(cleared.response.status).toBe(200);
    expect((await request(server, 'DELETE', `/cms/authors/${otherAuthorId}`)).response.status).toBe(200);
  });

  it('counts an image inside a (nested) block as used, so prune keeps it', async () => {
    const media = server.database.media();
    if (!media) throw new Error('the test server keeps uploads');
    const unused = async () => {
      const found = await findUnusedMedia(() => media.store.list(), media.sources(), Date.now() + PRUNE_GRACE_MS + 1);
      return found.files.map((file) => `/media/${file.path}`);
    };
    // imageA is used by the first test's page (a hero and a gallery photo); imageB by none yet.
    expect(await unused()).toEqual([imageB]);
    const page = await createPage({
      title: 'Photos',
      sections: [{ type: 'gallery', items: [{ type: 'photo', image: imageB }] }],
    });
    expect(page.response.status, JSON.stringify(page.body)).toBe(201);
    expect(await unused()).toEqual([]);
  });
});

describe('blocks descriptors', () => {
  it('accepts blocks nested three levels deep and refuses a fourth', async () => {
    const three = blocksOf([blocksOf([blocksOf([textColumn('leaf')])])]);
    const ok = await createType({ title: 'Deep', table: 'deep_ok', columns: [textColumn('title'), three] });
    expect(ok.response.status, JSON.stringify(ok.body)).toBe(201);
    const four = blocksOf([blocksOf([blocksOf([blocksOf([textColumn('leaf')])])])]);
    const refused = await createType({ title: 'Deeper', table: 'deep_no', columns: [textColumn('title'), four] });
    expect(refused.response.status).toBe(400);
    expect(Object.values(refused.body.error.problems)).toContainEqual({ code: 'too_deep', max: 3 });
    expect((await request(server, 'GET', '/cms/deep_no')).response.status).toBe(404);
  });

  it.each([
    [
      'duplicate block names',
      { ...SECTIONS, blocks: [TEXT_BLOCK, TEXT_BLOCK] },
      'columns[1].blocks',
      { code: 'listed_twice', column: 'text' },
    ],
    ['no block types', { ...SECTIONS, blocks: [] }, 'columns[1].blocks', { code: 'no_block_types' }],
    [
      'an unknown column type inside a block',
      blocksOf([{ name: 'x', label: 'X', type: 'video' as ColumnType, required: false }]),
      'columns[1].blocks[0].columns[0].type',
      { code: 'unknown_column_type' },
    ],
    [
      'a slug inside a block',
      blocksOf([textColumn('t'), { name: 's', label: 'S', type: 'slug', required: false, parent: 't' }]),
      'columns[1].blocks[0].columns[1].type',
      { code: 'unknown_column_type' },
    ],
    [
      'a block column named type',
      blocksOf([textColumn('type')]),
      'columns[1].blocks[0].columns[0].name',
      { code: 'reserved', name: 'type' },
    ],
    [
      'a relation inside a block to no type',
      blocksOf([{ name: 'r', label: 'R', type: 'relation', required: false, target: 'nothing' }]),
      'columns[1].blocks[0].columns[0].target',
      { code: 'no_such_type', type: 'nothing' },
    ],
  ])('refuses %s', async (_name, column, path, found) => {
    const { response, body } = await createType({
      title: 'Bad',
      table: 'bad_blocks',
      columns: [textColumn('title'), column],
    });
    expect(response.status).toBe(400);
    expect(body.error.problems[path]).toEqual(found);
    expect((await request(server, 'GET', '/cms/bad_blocks')).response.status).toBe(404);
  });
});

describe('changing block types', () => {
  // Hero columns a type change sends (renames carry `from`, which no stored descriptor has).
  const landing = (heroColumns: object[], withQuote = true) =>
    blocksColumn('sections', 'Sections', [
      blockType('hero', 'Hero', heroColumns as ColumnDescriptor[]),
      ...(withQuote ? [blockType('quote', 'Quote', [textColumn('said'), textColumn('by')])] : []),
    ]);

  it('keeps, renames and drops block columns as a type keeps its columns, and the change log names the drops', async () => {
    const created = await createType({
      title: 'Landing',
      table: 'landing',
      columns: [
        textColumn('title'),
        landing([textColumn('heading', true), textColumn('cta_label'), textColumn('tone')]),
      ],
    });
    expect(created.response.status, JSON.stringify(created.body)).toBe(201);
    const row = await request(server, 'POST', '/cms/landing', {
      json: {
        title: 'L',
        sections: [
          { type: 'hero', id: 'h', heading: 'Hi', cta_label: 'Go', tone: 'warm' },
          { type: 'quote', id: 'q', said: 'Yes', by: 'Ada' },
        ],
      },
    });
    expect(row.response.status, JSON.stringify(row.body)).toBe(201);

    const changed = await request(server, 'PUT', '/cms-content/landing', {
      json: {
        columns: [
          textColumn('title'),
          landing([textColumn('heading', true), { ...textColumn('button'), from: 'cta_label' }], false),
        ],
      },
    });
    expect(changed.response.status, JSON.stringify(changed.body)).toBe(200);
    const hero = changed.body.columns[1].blocks[0];
    expect(hero.columns.map((column: { name: string }) => column.name)).toEqual(['heading', 'button']);
    expect(hero.columns[1].from).toBeUndefined();

    const read = await request(server, 'GET', `/cms/landing/${row.body.id}`);
    expect(read.body.rows[0].sections).toEqual([{ type: 'hero', id: 'h', heading: 'Hi', button: 'Go' }]);
    const log = await request(server, 'GET', '/cms-content-changes?type=landing');
    expect(log.body.changes[0].detail.dropped).toEqual(['sections.hero.tone', 'sections.quote']);
  });

  it('refuses a block column type change and a rename of nothing, changing nothing', async () => {
    const before = (await request(server, 'GET', '/cms-content/landing')).body.columns;
    const retyped = await request(server, 'PUT', '/cms-content/landing', {
      json: {
        columns: [
          textColumn('title'),
          landing([{ name: 'heading', label: 'H', type: 'number', required: false }], false),
        ],
      },
    });
    expect(retyped.response.status).toBe(400);
    expect(retyped.body.error.problems['columns[1].blocks[0].columns[0]']).toEqual({
      code: 'type_change',
      from: 'text',
      to: 'number',
    });
    const renamed = await request(server, 'PUT', '/cms-content/landing', {
      json: {
        columns: [textColumn('title'), landing([textColumn('heading'), { ...textColumn('x'), from: 'nope' }], false)],
      },
    });
    expect(renamed.response.status).toBe(400);
    expect(renamed.body.error.problems['columns[1].blocks[0].columns[1]']).toEqual({
      code: 'renames_unknown',
      from: 'nope',
      table: 'hero',
    });
    expect((await request(server, 'GET', '/cms-content/landing')).body.columns).toEqual(before);
  });

  it('refuses to delete a type a block still points at', async () => {
    const refused = await request(server, 'DELETE', '/cms-content/authors?force=true');
    expect(refused.response.status).toBe(409);
    expect(refused.body.error.message).toContain('pages.sections');
  });
});

describe('OpenAPI', () => {
  it('describes a blocks column as a list of a union discriminated by type', async () => {
    const { body } = await request(server, 'GET', '/openapi.json');
    const page = Object.values(body.components.schemas).find(
      (schema: any) => schema.properties?.sections && schema.properties?.title && !schema.properties?.name,
    ) as any;
    expect(page).toBeDefined();
    const sections = page.properties.sections.anyOf?.[0] ?? page.properties.sections;
    expect(sections.type).toBe('array');
    expect(sections.items.discriminator).toEqual({ propertyName: 'type' });
    const members = sections.items.oneOf;
    expect(members.map((member: any) => member.properties.type.const)).toEqual(['hero', 'text', 'gallery', 'cta']);
    expect(members[0].required).toEqual(['type', 'id', 'heading', 'image', 'author', 'tone']);
    const photo = members[2].properties.items.items.oneOf[0];
    expect(photo.properties.type.const).toBe('photo');
  });

  it('gives generated types a union of the block types', async () => {
    const { response, text } = await request(server, 'GET', '/types.d.ts');
    expect(response.status).toBe(200);
    expect(text).toContain('type: "hero";');
    expect(text).toContain('type: "photo";');
    expect(text).toMatch(/sections\??: \(?\(\{/);
  });
});

// Last: it turns sign-in on for this server.
describe('a credential limited to some types', () => {
  it('reads relations inside blocks to a type it may not read as null, and may not set them', async () => {
    const home = (await request(server, 'GET', '/cms/pages?filter=title=Home')).body.rows[0];
    expect(home.sections[0].author).toMatchObject({ id: authorId });
    const first = await request(server, 'POST', '/auth/first-run', { json: { name: 'ada', password: TEAM_PASSWORD } });
    expect(first.response.status, first.text).toBe(201);
    const admin = sessionHeaders(server, sessionCookie(first.response) as string);
    const made = await request(server, 'POST', '/tokens', {
      json: { name: 'pages-bot', role: 'editor', content_types: ['pages'] },
      headers: admin,
    });
    expect(made.response.status, made.text).toBe(201);
    const bot = { authorization: `Bearer ${made.body.token}` };

    const read = await request(server, 'GET', `/cms/pages/${home.id}`, { headers: bot });
    expect(read.response.status).toBe(200);
    expect(read.body.rows[0].sections[0].author).toBeNull();
    expect(read.body.rows[0].sections[0].heading).toBe('Welcome');

    const refused = await request(server, 'POST', '/cms/pages', {
      json: { title: 'Probe', sections: [{ type: 'hero', heading: 'x', author: 'no-such-author' }] },
      headers: bot,
    });
    expect(refused.response.status).toBe(403);
    expect(refused.body.error.message).toContain('sections[0].author');
    const plain = await request(server, 'POST', '/cms/pages', {
      json: { title: 'Plain', sections: [{ type: 'hero', heading: 'x' }] },
      headers: bot,
    });
    expect(plain.response.status, plain.text).toBe(201);
  });
});
