import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOk } from '../test-support/api-scenario.js';
import { blocksColumn, blockType, fieldColumn, groupOfQuotes } from '../test-support/block-columns.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Rich text inside blocks reads as a `richtext` column does: row links at their row's current
 * address, and `format=markdown` gives Markdown, at any depth; other block fields are untouched.
 */
let server: TestServer;

const TITLE = fieldColumn('title', 'Title', 'text', { required: true });
const SECTIONS = blocksColumn('sections', 'Sections', [
  blockType('text', 'Text', [fieldColumn('body', 'Body', 'richtext'), fieldColumn('note', 'Note', 'text')]),
  groupOfQuotes('richtext'),
]);

const ok = (method: string, path: string, json?: object) => callOk(server, method, path, json);

let guide: string;
let page: string;

beforeAll(async () => {
  server = await startTestServer();
  await ok('POST', '/cms-content', {
    title: 'Guides',
    table: 'guides',
    columns: [TITLE, { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' }],
  });
  await ok('POST', '/cms-content', { title: 'Pages', table: 'pages', columns: [TITLE, SECTIONS] });
  guide = (await ok('POST', '/cms/guides', { title: 'First steps' })).id;
  page = (
    await ok('POST', '/cms/pages', {
      title: 'Home',
      sections: [
        { type: 'text', body: `<p>See <a href="quire://row/guides/${guide}">the guide</a>.</p>`, note: '<b>as is</b>' },
        {
          type: 'group',
          items: [
            { type: 'quote', said: `<p><strong>Bold</strong> <a href="quire://row/guides/${guide}">link</a></p>` },
          ],
        },
      ],
    })
  ).id;
});
afterAll(() => server.dispose());

const sectionsOf = async (query = '') => (await ok('GET', `/cms/pages/${page}${query}`)).rows[0].sections;

describe('rich text inside blocks', () => {
  it('reads row links at the row’s current address, at any depth, and follows a slug change', async () => {
    const link = (slug: string) => `<a href="/guides/${slug}" data-quire-row="guides/${guide}">`;
    let sections = await sectionsOf();
    expect(sections[0].body).toBe(`<p>See ${link('first-steps')}the guide</a>.</p>`);
    expect(sections[0].note).toBe('<b>as is</b>');
    expect(sections[1].items[0].said).toBe(`<p><strong>Bold</strong> ${link('first-steps')}link</a></p>`);
    await ok('PUT', `/cms/guides/${guide}`, { slug: 'getting-started' });
    sections = await sectionsOf();
    expect(sections[0].body).toContain(link('getting-started'));
    expect(sections[1].items[0].said).toContain(link('getting-started'));
  });

  it('gives Markdown with format=markdown, on a row read and a list read', async () => {
    const sections = await sectionsOf('?format=markdown');
    expect(sections[0].body).toBe('See [the guide](/guides/getting-started).');
    expect(sections[0].note).toBe('<b>as is</b>');
    expect(sections[1].items[0].said).toBe('**Bold** [link](/guides/getting-started)');
    const list = await ok('GET', '/cms/pages?format=markdown');
    expect(list.rows[0].sections).toEqual(sections);
  });

  it('stores the links as written: a write of the value read back keeps them', async () => {
    const read = await sectionsOf();
    await ok('PUT', `/cms/pages/${page}`, { sections: read });
    await ok('PUT', `/cms/guides/${guide}`, { slug: 'third-name' });
    const again = await sectionsOf();
    expect(again[0].body).toContain(`href="/guides/third-name" data-quire-row="guides/${guide}"`);
    expect(again[1].items[0].said).toContain(`href="/guides/third-name" data-quire-row="guides/${guide}"`);
  });
});
