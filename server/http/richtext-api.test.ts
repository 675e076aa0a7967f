import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../test-support/api-scenario.js';
import { richtextViolations } from '../test-support/richtext-checks.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { XSS_PAYLOADS } from '../test-support/xss-payloads.js';

/**
 * The `richtext` column through the API: every write sanitized whoever sends it, row links that
 * follow their row, `format=markdown`, and columns changed between `markdown` and `richtext`.
 */
let server: TestServer;

const TITLE = { name: 'title', label: 'Title', type: 'text', required: true };
const SLUG = { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' };

async function createType(json: object): Promise<void> {
  const { response, body } = await request(server, 'POST', '/cms-content', { json });
  expect(response.status, JSON.stringify(body)).toBe(201);
}

async function create(table: string, json: object): Promise<string> {
  const { response, body } = await request(server, 'POST', `/cms/${table}`, { json });
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body.id;
}

async function read(table: string, id: string, query = ''): Promise<Record<string, unknown>> {
  const { response, body } = await request(server, 'GET', `/cms/${table}/${id}${query}`);
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body.rows[0];
}

beforeAll(async () => {
  server = await startTestServer();
  await createType({
    title: 'Pages',
    table: 'pages',
    columns: [TITLE, { name: 'body', label: 'Body', type: 'richtext', required: false }],
  });
  await createType({ title: 'Guides', table: 'guides', columns: [TITLE, SLUG] });
  await createType({
    title: 'Events',
    table: 'events',
    columns: [TITLE, SLUG],
    preview_path: 'https://site.example/events/{slug}?id={id}',
  });
});
afterAll(() => server.dispose());

describe('richtext writes', () => {
  it('stores every XSS payload harmless, sent as JSON or as a form', async () => {
    const ids: string[] = [];
    for (const [index, payload] of XSS_PAYLOADS.entries()) {
      const sent = { title: `Payload ${index}`, body: `<p>before</p>${payload}<p>after</p>` };
      const { response, body } =
        index % 2 === 0
          ? await request(server, 'POST', '/cms/pages', { json: sent })
          : await request(server, 'POST', '/cms/pages', { body: sent });
      expect(response.status, JSON.stringify(body)).toBe(201);
      ids.push(body.id);
    }
    const { body } = await request(server, 'GET', '/cms/pages?limit=100');
    const stored = new Map<string, string>(body.rows.map((row: { id: string; body: string }) => [row.id, row.body]));
    for (const [index, id] of ids.entries()) {
      const html = stored.get(id) ?? '';
      // An unclosed script-like element takes the rest with it, as it would in a browser.
      expect(html, XSS_PAYLOADS[index]).toMatch(/^<p>before<\/p>/);
      expect(richtextViolations(html), XSS_PAYLOADS[index]).toEqual([]);
      expect(html).not.toMatch(/javascript:|data:|<script|\bon[a-z]+=|style=/i);
    }
  });

  it('keeps allowed formatting as sent and reads a body with nothing left as empty', async () => {
    const html = '<h2>Title</h2><p><strong>bold</strong> and <a href="https://example.com">a link</a></p>';
    const id = await create('pages', { title: 'Formatting', body: html });
    expect((await read('pages', id)).body).toBe(html);
    const { response, body } = await request(server, 'PUT', `/cms/pages/${id}`, {
      json: { body: '<script>alert(1)</script>' },
    });
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect((await read('pages', id)).body).toBeNull();
  });

  it('refuses a body that is not one string, changing nothing', async () => {
    const id = await create('pages', { title: 'Kept', body: '<p>kept</p>' });
    const { response, body } = await request(server, 'PUT', `/cms/pages/${id}`, { json: { body: { html: 'x' } } });
    expect(response.status).toBe(400);
    expect(Object.keys(body.error.fields)).toEqual(['body']);
    expect((await read('pages', id)).body).toBe('<p>kept</p>');
  });
});

describe('richtext inside blocks', () => {
  it('cleans the HTML of a block field like a column', async () => {
    const sections = {
      name: 'sections',
      label: 'Sections',
      type: 'blocks',
      required: false,
      blocks: [
        {
          name: 'text',
          label: 'Text',
          columns: [{ name: 'body', label: 'Body', type: 'richtext', required: false }],
        },
      ],
    };
    await createType({ title: 'Landings', table: 'landings', columns: [TITLE, sections] });
    const id = await create('landings', {
      title: 'Home',
      sections: [
        { type: 'text', body: '<p onclick="x()">Hi<script>alert(1)</script></p><a href="javascript:x()">y</a>' },
      ],
    });
    const [block] = (await read('landings', id)).sections as { body: string }[];
    expect(block.body).toBe('<p>Hi</p>y');
  });
});

describe('links to rows', () => {
  it('reads a row link at its row current address, and follows a slug change', async () => {
    const guide = await create('guides', { title: 'First steps' });
    const id = await create('pages', {
      title: 'Linking',
      body: `<p>See <a href="quire://row/guides/${guide}">the guide</a>.</p>`,
    });
    expect((await read('pages', id)).body).toBe(
      `<p>See <a href="/guides/first-steps" data-quire-row="guides/${guide}">the guide</a>.</p>`,
    );
    const updated = await request(server, 'PUT', `/cms/pages/${id}`, { json: { title: 'Linking again' } });
    expect(updated.body.body).toContain(`href="/guides/first-steps" data-quire-row="guides/${guide}"`);
    const renamed = await request(server, 'PUT', `/cms/guides/${guide}`, { json: { slug: 'getting-started' } });
    expect(renamed.response.status, JSON.stringify(renamed.body)).toBe(200);
    const now = await read('pages', id);
    expect(now.body).toBe(
      `<p>See <a href="/guides/getting-started" data-quire-row="guides/${guide}">the guide</a>.</p>`,
    );
    // What a read gives, written back, is stored as the row link again.
    await request(server, 'PUT', `/cms/pages/${id}`, { json: { body: now.body } });
    await request(server, 'PUT', `/cms/guides/${guide}`, { json: { slug: 'third-name' } });
    expect((await read('pages', id)).body).toContain(`href="/guides/third-name" data-quire-row="guides/${guide}"`);
    expect((await read('pages', id, '?format=markdown')).body).toBe('See [the guide](/guides/third-name).');
  });

  it("uses the target type's preview path, and leaves a link to a deleted row without an href", async () => {
    const event = await create('events', { title: 'Launch party' });
    const id = await create('pages', {
      title: 'Events',
      body: `<p><a data-quire-row="events/${event}" href="/anything">party</a></p>`,
    });
    expect((await read('pages', id)).body).toBe(
      `<p><a href="https://site.example/events/launch-party?id=${event}" data-quire-row="events/${event}">party</a></p>`,
    );
    expect((await request(server, 'DELETE', `/cms/events/${event}`)).response.status).toBe(200);
    expect((await read('pages', id)).body).toBe(`<p><a data-quire-row="events/${event}">party</a></p>`);
  });
});

describe('format=markdown', () => {
  const html =
    '<h2>Heading</h2><p>Some <strong>bold</strong>, <em>italic</em> and <s>struck</s> text.</p><ul><li>one</li><li>two</li></ul><blockquote><p>quoted</p></blockquote><pre><code>a &lt; b\n</code></pre>';

  it('gives Markdown for one row, a list and a single read, and HTML without it', async () => {
    const id = await create('pages', { title: 'Markdown', body: html });
    const markdown = (await read('pages', id, '?format=markdown')).body as string;
    expect(markdown).toMatch(/^## Heading\n\nSome \*\*bold\*\*, \*italic\* and ~~?struck~~? text\.\n\n- one\n- two/);
    expect(markdown).toContain('> quoted');
    expect(markdown).toContain('```\na < b\n```');
    const { body } = await request(server, 'GET', `/cms/pages?format=markdown&filter=title=Markdown`);
    expect(body.rows.map((row: { body: string }) => row.body)).toEqual([markdown]);
    expect((await read('pages', id, '?format=html')).body).toBe(html);
    expect((await read('pages', id)).body).toBe(html);
  });

  it('refuses another format with a 400', async () => {
    const id = await create('pages', { title: 'Format', body: '<p>x</p>' });
    for (const url of [`/cms/pages/${id}?format=pdf`, '/cms/pages?format=text']) {
      const { response, body } = await request(server, 'GET', url);
      expect(response.status).toBe(400);
      expect(body.error.message).toMatch(/format/);
    }
  });
});

describe('changing a column between markdown and richtext', () => {
  const markdown = [
    '## Heading',
    '',
    'Some **bold**, *italic* and ~~struck~~ text with [a link](https://example.com).',
    '',
    '- one',
    '- two',
    '',
    '1. first',
    '2. second',
    '',
    '> quoted',
    '',
    '```',
    'code <here>',
    '```',
    '',
    '| a | b |',
    '| --- | --- |',
    '| 1 | 2 |',
    '',
    '---',
  ].join('\n');
  const column = (type: string, extra: object = {}) => ({
    name: 'body',
    label: 'Body',
    type,
    required: false,
    ...extra,
  });
  const change = (columns: object[]) => request(server, 'PUT', '/cms-content/notes', { json: { columns } });
  const flat = (html: unknown) => String(html).replace(/>\s+</g, '><');

  it('converts every row, both ways, and the change log names the conversion', async () => {
    await createType({ title: 'Notes', table: 'notes', columns: [TITLE, column('markdown')] });
    const id = await create('notes', { title: 'Converted', body: markdown });
    const hostile = await create('notes', {
      title: 'Hostile',
      body: 'Hi <script>alert(1)</script><img src=x onerror=alert(1)>',
    });
    const empty = await create('notes', { title: 'Empty' });

    const toRich = await change([TITLE, column('richtext')]);
    expect(toRich.response.status, JSON.stringify(toRich.body)).toBe(200);
    const html = flat((await read('notes', id)).body);
    expect(html).toBe(
      '<h2>Heading</h2><p>Some <strong>bold</strong>, <em>italic</em> and <s>struck</s> text with <a href="https://example.com">a link</a>.</p>' +
        '<ul><li>one</li><li>two</li></ul><ol><li>first</li><li>second</li></ol><blockquote><p>quoted</p></blockquote>' +
        '<pre><code>code &lt;here&gt;\n</code></pre><table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table><hr />',
    );
    const cleaned = String((await read('notes', hostile)).body);
    expect(richtextViolations(cleaned)).toEqual([]);
    expect(cleaned).not.toMatch(/script|onerror/);
    expect((await read('notes', empty)).body).toBeNull();

    const toMarkdown = await change([TITLE, column('markdown')]);
    expect(toMarkdown.response.status, JSON.stringify(toMarkdown.body)).toBe(200);
    const back = String((await read('notes', id)).body);
    expect(back).toMatch(
      /^## Heading\n\nSome \*\*bold\*\*, \*italic\* and ~+struck~+ text with \[a link\]\(https:\/\/example.com\)\./,
    );
    for (const part of ['> quoted', '```\ncode <here>\n```', '| a', '---']) expect(back).toContain(part);

    // Once more to richtext: the same HTML as the first time.
    await change([TITLE, column('richtext')]);
    expect(flat((await read('notes', id)).body)).toBe(html);

    const { body } = await request(server, 'GET', '/cms-content-changes?type=notes');
    const converted = body.changes.map((entry: { detail: { converted?: unknown } }) => entry.detail.converted);
    expect(converted.slice(0, 3)).toEqual([
      [{ column: 'body', from: 'markdown', to: 'richtext' }],
      [{ column: 'body', from: 'richtext', to: 'markdown' }],
      [{ column: 'body', from: 'markdown', to: 'richtext' }],
    ]);
  });

  it('cleans a Markdown-era revision restored into the richtext column', async () => {
    await createType({ title: 'Drafts', table: 'drafts', columns: [TITLE, column('markdown')] });
    const id = await create('drafts', {
      title: 'Draft',
      body: 'Hello <img src=x onerror=alert(1)><script>alert(2)</script>',
    });
    const changed = await request(server, 'PUT', '/cms-content/drafts', {
      json: { columns: [TITLE, column('richtext')] },
    });
    expect(changed.response.status, JSON.stringify(changed.body)).toBe(200);
    const { body: listed } = await request(server, 'GET', `/cms/drafts/${id}/revisions`);
    const first = listed.revisions.at(-1).id;
    const restored = await request(server, 'POST', `/cms/drafts/${id}/revisions/${first}/restore`);
    expect(restored.response.status, JSON.stringify(restored.body)).toBe(200);
    const html = String((await read('drafts', id)).body);
    expect(html).toContain('Hello');
    expect(richtextViolations(html)).toEqual([]);
    expect(html).not.toMatch(/script|onerror/);
  });

  it('converts a column renamed in the same change, and refuses other type changes to richtext', async () => {
    await createType({
      title: 'Memos',
      table: 'memos',
      columns: [TITLE, column('markdown'), { name: 'count', label: 'Count', type: 'number', required: false }],
    });
    const id = await create('memos', { title: 'Memo', body: '**hi**', count: 3 });
    const renamed = await request(server, 'PUT', '/cms-content/memos', {
      json: {
        columns: [
          TITLE,
          column('richtext', { name: 'content', from: 'body' }),
          { name: 'count', label: 'Count', type: 'number', required: false },
        ],
      },
    });
    expect(renamed.response.status, JSON.stringify(renamed.body)).toBe(200);
    expect((await read('memos', id)).content).toBe('<p><strong>hi</strong></p>');

    const refused = await request(server, 'PUT', '/cms-content/memos', {
      json: {
        columns: [
          TITLE,
          column('richtext', { name: 'content' }),
          { name: 'count', label: 'Count', type: 'richtext', required: false },
        ],
      },
    });
    expect(refused.response.status).toBe(400);
    expect(refused.body.error.fields.count).toMatch(/cannot change type from number to richtext/);
    expect(await read('memos', id)).toMatchObject({ content: '<p><strong>hi</strong></p>', count: 3 });
  });
});

describe('OpenAPI', () => {
  it('describes richtext as HTML and the reads of its types take format', async () => {
    const { body: document } = await request(server, 'GET', '/openapi.json');
    const schema = Object.values(document.components.schemas as Record<string, any>).find(
      (candidate) => candidate.properties?.body && candidate.properties?.title && !candidate.properties?.slug,
    );
    expect(schema.properties.body.anyOf[0]).toMatchObject({ type: 'string', contentMediaType: 'text/html' });
    const names = (operation: { parameters?: { name: string }[] }) =>
      (operation.parameters ?? []).map((parameter) => parameter.name);
    expect(names(document.paths['/cms/pages'].get)).toContain('format');
    expect(names(document.paths['/cms/pages/{id}'].get)).toContain('format');
    expect(names(document.paths['/cms/guides'].get)).not.toContain('format');
  });

  it('types a richtext column as a string in the generated TypeScript', async () => {
    const { response, text } = await request(server, 'GET', '/types.d.ts');
    expect(response.status).toBe(200);
    const page = /export interface Page \{[^}]*\}/.exec(text)?.[0] ?? '';
    expect(page).toMatch(/body: string \| null;/);
  });
});
