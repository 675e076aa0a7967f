import type { ContentRow, CreateRowResponse, ListResponse, UploadResponse } from '../../common/api-contract.js';
import { landscapePng } from './png-image.js';

/** Uploads a PNG through the API, as the editor does. */
export async function uploadPng(api: string, png: Buffer, name = 'picture.png'): Promise<UploadResponse> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), name);
  const response = await fetch(`${api}/uploads`, { method: 'POST', body: form });
  if (response.status !== 201) throw new Error(`Upload failed with ${response.status}: ${await response.text()}`);
  return (await response.json()) as UploadResponse;
}

async function post(api: string, type: string, body: unknown): Promise<ContentRow> {
  const response = await fetch(`${api}/cms/${type}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201)
    throw new Error(`Seeding ${type} failed with ${response.status}: ${await response.text()}`);
  return ((await response.json()) as CreateRowResponse).rows[0];
}

const ARTICLES = [
  {
    title: 'A weekend on the harbour: boats, music and the best fish soup in town',
    description: 'From the regatta at dawn to the jazz stage at night, a guide to the harbour festival.',
    tags: ['festival', 'harbour', 'guide'],
    category: 'Culture',
  },
  {
    title: 'The new cycle lanes, street by street',
    description: 'What changes on Harbour Road, where the lanes connect and when the works finish.',
    tags: ['transport', 'city council'],
    category: 'Local news',
  },
  {
    title: 'Inside the lighthouse restoration',
    description: 'Stonemasons, a 1740 map and a lottery grant: how the old light is coming back.',
    tags: ['history', 'lighthouse', 'restoration', 'heritage'],
    category: 'Culture',
  },
  {
    title: 'Rowing club wins the river cup',
    description: 'Eight rowers, one photo finish.',
    tags: ['sport', 'rowing'],
    category: 'Sport',
  },
];

/** The body of the demo articles. */
export const ARTICLE_BODY = `## The morning regatta

Boats leave the **old quay** at seven. Bring a coffee and find a spot on the breakwater: the best view is from the *lighthouse end*.

- Regatta: 7:00, old quay
- Fish market: 9:00 – 13:00
- Jazz on the pier: from 20:00

> “The harbour has never been this full.” — the harbour master

Read the [full programme](https://example.org/programme) before you go.`;

/** Adds the demo articles (with uploaded pictures, tags and categories) to a server with demo content. */
export async function seedArticles(api: string): Promise<ContentRow[]> {
  const categories = (await (await fetch(`${api}/cms/categories?limit=50`)).json()) as ListResponse;
  const byTitle = new Map(categories.rows.map((row) => [row.title, row.id]));
  const created: ContentRow[] = [];
  for (const [index, article] of ARTICLES.entries()) {
    const image = await uploadPng(api, landscapePng(480, 300, index * 70), `article-${index + 1}.png`);
    created.push(
      await post(api, 'articles', {
        title: article.title,
        status: index === 3 ? 'draft' : 'published',
        published_at: `2025-0${index + 3}-1${index} 09:30:00`,
        description: article.description,
        body: ARTICLE_BODY,
        image: image.path,
        tags: article.tags,
        category: byTitle.get(article.category) ?? null,
      }),
    );
  }
  return created;
}
