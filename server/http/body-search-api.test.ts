import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRows } from '../import/row-import.js';
import { callOk } from '../test-support/api-scenario.js';
import { blocksColumn, blockType, fieldColumn, groupOfQuotes } from '../test-support/block-columns.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * `filter=search=` over rich text and blocks columns, on both engines: the text their field types
 * derive is searched (not tags, attributes, image paths or block types), writes and deletes move
 * the results, type changes that add, drop or convert a body column follow, counts hold.
 */
let server: TestServer;

const TITLE = fieldColumn('title', 'Title', 'text', { required: true });
const BODY = fieldColumn('body', 'Body', 'richtext');
const HERO = blockType('hero', 'Hero', [
  fieldColumn('heading', 'Heading', 'text'),
  fieldColumn('tone', 'Tone', 'select', {
    options: [
      { id: 'zebra', text: 'Zebra' },
      { id: 'plain', text: 'Plain' },
    ],
  }),
]);
const GROUP = groupOfQuotes('richtext');
const SECTIONS = blocksColumn('sections', 'Sections', [HERO, GROUP]);

const ok = (method: string, path: string, json?: object) => callOk(server, method, path, json);

async function found(table: string, words: string): Promise<{ titles: string[]; total: number; filtered: number }> {
  const body = await ok('GET', `/cms/${table}?filter=search=${encodeURIComponent(words)}&limit=100&order=title`);
  const rows = body.rows as { title: string }[];
  return { titles: rows.map((row) => row.title), total: Number(body.total), filtered: Number(body.filtered) };
}

async function titlesFound(table: string, words: string): Promise<string[]> {
  return (await found(table, words)).titles;
}

beforeAll(async () => {
  server = await startTestServer();
  await ok('POST', '/cms-content', { title: 'Pages', table: 'pages', columns: [TITLE, BODY, SECTIONS] });
});
afterAll(() => server.dispose());

describe('search over rich text and blocks', () => {
  it('publishes the body columns among the search columns', async () => {
    const body = await ok('GET', '/cms-content/pages');
    expect(body.search_columns).toEqual(['title', 'body', 'sections']);
  });

  it('finds a word only in a rich text body, not a tag name or an attribute value', async () => {
    await ok('POST', '/cms/pages', {
      title: 'Alpha',
      body: '<p>The <strong>marmalade</strong> recipe, <a href="https://quokka.example/">see here</a>.</p>',
    });
    await ok('POST', '/cms/pages', { title: 'Beta', body: '<p>Nothing &amp; more</p>' });
    expect(await titlesFound('pages', 'marmalade')).toEqual(['Alpha']);
    expect(await titlesFound('pages', 'MARMALADE recipe')).toEqual(['Alpha']);
    expect(await titlesFound('pages', 'marma')).toEqual(['Alpha']);
    expect(await titlesFound('pages', 'strong')).toEqual([]);
    expect(await titlesFound('pages', 'quokka')).toEqual([]);
    expect(await titlesFound('pages', 'href')).toEqual([]);
    expect(await titlesFound('pages', 'nothing & more')).toEqual(['Beta']);
    expect(await titlesFound('pages', 'amp')).toEqual([]);
  });

  it('finds a word inside a nested block, not a block type or an option value', async () => {
    await ok('POST', '/cms/pages', {
      title: 'Gamma',
      sections: [
        { type: 'hero', heading: 'Sunrise over the bay', tone: 'zebra' },
        { type: 'group', items: [{ type: 'quote', said: '<p>A <em>wombat</em> said so</p>' }] },
      ],
    });
    expect(await titlesFound('pages', 'sunrise')).toEqual(['Gamma']);
    expect(await titlesFound('pages', 'wombat')).toEqual(['Gamma']);
    expect(await titlesFound('pages', 'zebra')).toEqual([]);
    expect(await titlesFound('pages', 'hero')).toEqual([]);
    expect(await titlesFound('pages', 'quote')).toEqual([]);
  });

  it('follows updates and deletes, with counts that hold', async () => {
    const { id } = (await ok('POST', '/cms/pages', { title: 'Delta', body: '<p>pelican</p>' })) as { id: string };
    const before = await found('pages', 'pelican');
    expect(before.titles).toEqual(['Delta']);
    expect(before.filtered).toBe(1);
    expect(before.total).toBe(4);
    await ok('PATCH', `/cms/pages/${id}`, { body: '<p>flamingo</p>' });
    expect(await titlesFound('pages', 'pelican')).toEqual([]);
    expect(await titlesFound('pages', 'flamingo')).toEqual(['Delta']);
    // A write that leaves the body alone keeps its text searchable.
    await ok('PATCH', `/cms/pages/${id}`, { title: 'Delta two' });
    expect(await titlesFound('pages', 'flamingo')).toEqual(['Delta two']);
    await ok('PATCH', `/cms/pages/${id}`, { body: null });
    expect(await titlesFound('pages', 'flamingo')).toEqual([]);
    await ok('PATCH', `/cms/pages/${id}`, { sections: [{ type: 'hero', heading: 'Heron' }] });
    expect(await titlesFound('pages', 'heron')).toEqual(['Delta two']);
    await ok('DELETE', `/cms/pages/${id}`);
    const after = await found('pages', 'heron');
    expect(after.titles).toEqual([]);
    expect(after.filtered).toBe(0);
    expect(after.total).toBe(3);
  });

  it('finds rows a bulk import wrote', async () => {
    const { registry } = server.services;
    await ok('POST', '/cms-content', { title: 'Notes', table: 'notes', columns: [TITLE, BODY] });
    await registry.reload();
    const result = await importRows(
      server.database,
      registry,
      registry.requireBySlug('notes'),
      [
        { line: 1, fields: { title: 'Imported one', body: '<p>An <b>ibis</b> here</p>' } },
        { line: 2, fields: { title: 'Imported two', body: '<p>nothing</p>' } },
      ],
      { editorName: 'import' },
    );
    expect(result.refused).toBe(0);
    expect(await titlesFound('notes', 'ibis')).toEqual(['Imported one']);
    expect(await titlesFound('notes', 'b>')).toEqual([]);
  });

  it('keeps the search text out of revisions, and a restore makes the old body searchable again', async () => {
    const { id } = (await ok('POST', '/cms/pages', { title: 'Zeta', body: '<p>albatross</p>' })) as { id: string };
    await ok('PATCH', `/cms/pages/${id}`, { body: '<p>cormorant</p>' });
    const { revisions } = (await ok('GET', `/cms/pages/${id}/revisions`)) as { revisions: { id: number }[] };
    const created = revisions[revisions.length - 1].id;
    const revision = await ok('GET', `/cms/pages/${id}/revisions/${created}`);
    expect(revision.dropped).toEqual([]);
    expect(Object.keys(revision.row as object).some((name) => name.startsWith('quire_'))).toBe(false);
    expect(await titlesFound('pages', 'albatross')).toEqual([]);
    await ok('POST', `/cms/pages/${id}/revisions/${created}/restore`);
    expect(await titlesFound('pages', 'albatross')).toEqual(['Zeta']);
    expect(await titlesFound('pages', 'cormorant')).toEqual([]);
    await ok('DELETE', `/cms/pages/${id}`);
  });

  it('follows a type change adding, converting and dropping a rich text column', async () => {
    const notes = { name: 'notes', label: 'Notes', type: 'markdown', required: false };
    await ok('POST', '/cms-content', { title: 'Posts', table: 'posts', columns: [TITLE, notes] });
    await ok('POST', '/cms/posts', { title: 'First', notes: 'An **otter** swims' });
    await ok('POST', '/cms/posts', { title: 'Second', notes: 'Plain words' });
    // Markdown is not searched.
    expect(await titlesFound('posts', 'otter')).toEqual([]);

    await ok('PUT', '/cms-content/posts', { columns: [TITLE, { ...notes, type: 'richtext' }] });
    expect((await ok('GET', '/cms-content/posts')).search_columns).toEqual(['title', 'notes']);
    expect(await titlesFound('posts', 'otter')).toEqual(['First']);
    expect(await titlesFound('posts', 'strong')).toEqual([]);

    await ok('PUT', '/cms-content/posts', {
      columns: [TITLE, { ...notes, type: 'richtext', name: 'text', from: 'notes' }, { ...BODY, name: 'extra' }],
    });
    expect(await titlesFound('posts', 'otter')).toEqual(['First']);
    await ok('POST', '/cms/posts', { title: 'Third', extra: '<p>badger</p>' });
    expect(await titlesFound('posts', 'badger')).toEqual(['Third']);

    await ok('PUT', '/cms-content/posts', { columns: [TITLE] });
    expect((await ok('GET', '/cms-content/posts')).search_columns).toEqual(['title']);
    expect(await titlesFound('posts', 'otter')).toEqual([]);
    expect(await titlesFound('posts', 'badger')).toEqual([]);
    expect(await titlesFound('posts', 'third')).toEqual(['Third']);
  });

  it('follows a block type change that drops a field', async () => {
    await ok('POST', '/cms/pages', { title: 'Epsilon', sections: [{ type: 'hero', heading: 'Kestrel' }] });
    expect(await titlesFound('pages', 'kestrel')).toEqual(['Epsilon']);
    const hero = { ...HERO, columns: [HERO.columns[1]] };
    await ok('PUT', '/cms-content/pages', {
      columns: [TITLE, BODY, { ...SECTIONS, blocks: [hero, GROUP] }],
    });
    expect(await titlesFound('pages', 'kestrel')).toEqual([]);
    expect(await titlesFound('pages', 'marmalade')).toEqual(['Alpha']);
  });
});
