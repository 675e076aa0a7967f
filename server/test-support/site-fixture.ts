import { expect } from 'vitest';
import { gifImage, pngImage } from './sample-images.js';

/**
 * A small site that uses every column type, a relation, meta and two uploads, and the whole of it
 * as its API shows it: for tests that move a site (copy, backup, restore) and compare both ends.
 */

/** One JSON request to a server's API: its status and its parsed body. */
export async function api(origin: string, method: string, url: string, json?: unknown) {
  const response = await fetch(`${origin}/api${url}`, {
    method,
    headers: json === undefined ? {} : { 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** Uploads a file, kept as a file of its own even when its bytes were uploaded before; returns its `/media/...` path. */
export async function upload(origin: string, bytes: Uint8Array, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const response = await fetch(`${origin}/api/uploads?duplicate=true`, { method: 'POST', body: form });
  expect(response.status).toBe(201);
  return ((await response.json()) as { path: string }).path;
}

/** A column of every type, for the `every_type` content type. */
export const COLUMNS = [
  { name: 'f_text', label: 'Text', type: 'text', required: true },
  { name: 'f_textarea', label: 'Long', type: 'textarea', required: false },
  { name: 'f_markdown', label: 'Md', type: 'markdown', required: false },
  { name: 'f_slug', label: 'Slug', type: 'slug', required: false, parent: 'f_text' },
  { name: 'f_select', label: 'Select', type: 'select', required: false, options: [{ id: 'a', text: 'A' }] },
  { name: 'f_datetime', label: 'When', type: 'datetime', required: false },
  { name: 'f_date', label: 'Day', type: 'date', required: false },
  { name: 'f_number', label: 'Num', type: 'number', required: false },
  { name: 'f_boolean', label: 'Flag', type: 'boolean', required: false },
  { name: 'f_image', label: 'Image', type: 'image', required: false },
  { name: 'f_tags', label: 'Tags', type: 'tags', required: false },
  { name: 'f_relation', label: 'Rel', type: 'relation', required: false, target: 'categories' },
];

/** Everything a site shows through the API: types, every row of every type, the uploads' bytes. */
export async function siteThroughApi(origin: string, uploads: readonly string[]) {
  const types = (await api(origin, 'GET', '/cms-content')).body;
  const rows: Record<string, unknown> = {};
  for (const table of ['news', 'categories', 'every_type']) {
    rows[table] = (await api(origin, 'GET', `/cms/${table}?limit=100&order=id`)).body.rows;
  }
  const media: string[] = [];
  for (const path of uploads) {
    const response = await fetch(`${origin}${path}`);
    expect(response.status).toBe(200);
    media.push(Buffer.from(await response.arrayBuffer()).toString('base64'));
  }
  return { types, rows, media };
}

/** Builds the site on an empty server (either engine): the `every_type` type, its rows, a news row; returns the uploads. */
export async function buildSite(origin: string): Promise<string[]> {
  const uploads = [await upload(origin, pngImage(), 'a.png'), await upload(origin, gifImage(), 'b.gif')];
  const created = await api(origin, 'POST', '/cms-content', {
    title: 'Every type',
    table: 'every_type',
    columns: COLUMNS,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const categories: string[] = [];
  for (const title of ['Über', 'Second']) {
    categories.push((await api(origin, 'POST', '/cms/categories', { title })).body.id);
  }
  for (const [index, image] of uploads.entries()) {
    const row = await api(origin, 'POST', '/cms/every_type', {
      f_text: `Row ${index} Ärger`,
      f_textarea: 'two\nlines',
      f_markdown: '# heading',
      f_select: 'a',
      f_datetime: '2025-01-01 10:00:00',
      f_date: '2025-02-01',
      f_number: index + 0.5,
      f_boolean: index === 0,
      f_image: image,
      f_tags: ['x', `tag-${index}`],
      f_relation: categories[index],
    });
    expect(row.status, JSON.stringify(row.body)).toBe(201);
  }
  const news = await api(origin, 'POST', '/cms/news', {
    title: 'With meta',
    status: 'draft',
    published_at: '2025-01-01 10:00:00',
    meta: { title: 'T', description: 'D', keywords: 'a, b' },
  });
  expect(news.status, JSON.stringify(news.body)).toBe(201);
  return uploads;
}
