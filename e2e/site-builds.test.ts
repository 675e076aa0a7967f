import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { copyCommand } from '../server/backup/copy-command.js';
import { packageRoot } from '../server/config/package-root.js';
import { request } from '../server/test-support/api-scenario.js';
import { captureOutput } from '../server/test-support/captured-output.js';
import { pngImage } from '../server/test-support/sample-images.js';
import { startTestServer, type TestServer, testEngine } from '../server/test-support/test-server.js';

/**
 * The examples in examples/ built with their real CLIs (Astro, Eleventy) against a running Quire,
 * then again from a `quire export` folder with the server stopped. Besides the starter types, the
 * site holds two content types of its own (Recipes, pointing at Ingredients) whose columns the
 * examples have never seen: each example must lay them out by their column types. The same site
 * holds a page built from blocks (a landing page type whose `sections` offer hero, text (rich text),
 * quote and a gallery of nested photo blocks) and a single-row type of site settings: the examples
 * lay out hero, text and quote with their own block layouts and the gallery with the generic one;
 * rich text is the server's sanitized HTML, shown as markup. One site for all, so each build shows
 * every kind of content: a build (and a type check) is the slow part of this file. The site has two
 * locales, en (the default) and de falling back to en, and a type of stories whose title, slug,
 * summary and body are localized: each build is one tree per locale (checkTranslations).
 * Each engine serves the builds once: the running Quire is on the engine QUIRE_TEST_ENGINE names
 * (the `site-builds` project sets PostgreSQL where there is one), and the export is made from a
 * SQLite file, a `quire copy` of the site where it was on PostgreSQL.
 * Builds may reach this machine only: a preload refuses (and reports) any other connection, and
 * Astro's telemetry is off.
 */
const root = packageRoot();
const SITES = {
  astro: {
    cli: join(root, 'node_modules', 'astro', 'astro.js'),
    args: ['build'],
    // A type's own page, as the example's README says to write one.
    override: {
      file: join('src', 'overrides', 'ingredients.astro'),
      text: `---
import RowPage from '../components/RowPage.astro';
const { page } = Astro.props;
---
<RowPage page={page}><p class="note">In the pantry: {page.title}</p></RowPage>
`,
    },
  },
  eleventy: {
    cli: join(root, 'node_modules', '@11ty', 'eleventy', 'cmd.cjs'),
    args: [],
    override: {
      file: join('src', '_includes', 'overrides', 'ingredients.njk'),
      text: `{% extends "row-page.njk" %}
{% block extra %}<p class="note">In the pantry: {{ entry.title }}</p>{% endblock %}
`,
    },
  },
} as const;
type Site = keyof typeof SITES;

let server: TestServer;
let serverStopped = false;
let work: string;
/** Where the site is stored, as `quire` commands take it: `--db FILE` or `--database URL`. */
let siteDatabase: string[];
/** The article's image (3 x 2) and the recipe's photo (40 x 30), as the server named them. */
const media = { image: '', photo: '' };
/** Each upload's asset id and content hash, by its path. */
const uploads: Record<string, { id: string; hash: string }> = {};
/** The widths the example sites ask of a server, and the export of its variants. */
const IMAGE_WIDTHS = '16,32';
const PHOTO = pngImage(40, 30);
const published = { news: 'Harbour opens', article: 'Boats and sails', recipe: 'Sourdough loaf' };
const drafts = { news: 'Secret plans', article: 'Unfinished article', recipe: 'Secret stew' };
/** The landing page's hero image (48 x 36) and its gallery's photos, as the server named them. */
const blockMedia = { hero: '', photos: [] as string[] };
/** The rich text as the server stored it (what the pages must show as markup). */
const stored = { intro: '', body: '', footer: '' };
const XSS = '<img src=x onerror="alert(1)"><a href="javascript:alert(2)">click</a>';
/** The copy of the Astro example the first test built from the running server (the next builds it again). */
let liveAstro = '';
/** The story translated into de but for its summary, which falls back to en. */
const STORY = {
  title: { en: 'Harbour walk', de: 'Hafenrundgang' },
  slug: { en: 'harbour-walk', de: 'hafenrundgang' },
  summary: { en: 'A walk by the sea', de: null },
  body: { en: 'By the **sea**', de: 'Am **Meer**' },
};
const METHOD = '## Knead well\n\nFold *twice*.\n\n<script>alert("x")</script> [trap](javascript:alert(1))';

/** Runs a command to its end; resolves with its exit code and everything it printed. */
function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: {
        ...process.env,
        ASTRO_TELEMETRY_DISABLED: '1',
        NODE_OPTIONS: `--import ${join(root, 'e2e', 'support', 'loopback-only.mjs')}`,
        NO_COLOR: '1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** A port nothing listens on now, on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** `quire ...` from the sources, as a user would run it. */
function quire(...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', join(root, 'server', 'cli.ts'), ...args], root, {
    NODE_OPTIONS: '',
  });
}

/**
 * One example copied into a fresh folder (so the build's caches stay in the test's folder), with
 * node_modules linked to the project's and the override page for Ingredients added.
 */
function prepare(site: Site, label: string): string {
  const copy = join(work, `${site}-${label}`);
  cpSync(join(root, 'examples', site), copy, {
    recursive: true,
    filter: (path) => !/[\\/](?:node_modules|dist|_site|\.cache|\.astro)$/.test(path),
  });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const { override } = SITES[site];
  mkdirSync(dirname(join(copy, override.file)), { recursive: true });
  writeFileSync(join(copy, override.file), override.text);
  return copy;
}

/**
 * The Astro example's TypeScript types regenerated with `quire types` from the site's database,
 * and its loader and helpers type-checked against them.
 */
async function checkTypes(copy: string, database: string[]): Promise<void> {
  const types = await quire('types', ...database, '--out', join(copy, 'src', 'quire-types.d.ts'));
  expect(types.code, types.output).toBe(0);
  // The loader and its helpers type-check against the generated types (the pages are .astro files,
  // which tsc does not read).
  const files = ['quire-loader.ts', 'quire-source.ts', 'quire-media.ts', 'quire-live.ts'].map((file) =>
    join('src', file),
  );
  const flags = ['--noEmit', '--strict', '--skipLibCheck', '--module', 'esnext', '--moduleResolution', 'bundler'];
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const checked = await run(process.execPath, [tsc, ...flags, '--target', 'es2022', '--types', 'node', ...files], copy);
  expect(checked.output).toBe('');
  expect(checked.code).toBe(0);
}

/** Runs an example's real CLI in its copy; the site goes to `<copy>/site-out`. */
function runBuild(site: Site, copy: string, env: Record<string, string>) {
  // Inside the copy: Astro's build imports its own output, which must find node_modules above it.
  const out = join(copy, 'site-out');
  const { cli, args } = SITES[site];
  const outArgs = site === 'eleventy' ? [`--output=${out}`] : [];
  return run(process.execPath, [cli, ...args, ...outArgs], copy, { ...env, SITE_OUT_DIR: out });
}

/**
 * Builds one example in a copy of its own; returns the folder of the built site. `checkTypes`: the
 * Astro example's types are regenerated from the site's database and its code checked against them
 * first (once per file: the database's types do not differ between its builds).
 */
async function build(site: Site, label: string, env: Record<string, string>, typeCheck = false): Promise<string> {
  const copy = prepare(site, label);
  if (site === 'astro' && typeCheck) await checkTypes(copy, siteDatabase);
  const result = await runBuild(site, copy, env);
  expect(result.code, result.output).toBe(0);
  expect(result.output).not.toContain('loopback-only: refused');
  return join(copy, 'site-out');
}

/** The `<img>` tag showing a media path on a page. */
function imgTag(html: string, src: string): string {
  const tag = html.match(new RegExp(`<img [^>]*src="${src}"[^>]*>`))?.[0];
  expect(tag, `no <img> of ${src} in ${html}`).toBeDefined();
  return tag as string;
}

/**
 * The recipe's 40x30 photo as a picture: AVIF then WebP sources with `sizes` and a `srcset` of the
 * widths asked (as the server's variant URLs, or as the export's files copied into the site), each
 * URL or file name carrying the photo's content hash.
 */
function checkPicture(out: string, html: string, from: 'server' | 'export'): void {
  const picture = html.match(
    new RegExp(`<picture>(?:(?!</picture>).)*src="${media.photo}"[^>]*>\\s*</picture>`, 's'),
  )?.[0];
  expect(picture, `no <picture> of ${media.photo} in ${html}`).toBeDefined();
  const sources = [...(picture as string).matchAll(/<source ([^>]*)>/g)].map((match) => match[1]);
  expect(sources.map((source) => source.match(/type="([^"]+)"/)?.[1])).toEqual(['image/avif', 'image/webp']);
  const { hash } = uploads[media.photo];
  for (const [index, format] of ['avif', 'webp'].entries()) {
    expect(sources[index]).toMatch(/sizes="[^"]+"/);
    // Astro writes a bare & in an attribute, Nunjucks &amp;: the same URL either way.
    const srcset = (sources[index].match(/srcset="([^"]+)"/)?.[1] ?? '').replaceAll('&amp;', '&');
    const entries = srcset.split(', ').map((entry) => entry.split(' '));
    expect(entries.map(([, width]) => width)).toEqual(['16w', '32w']);
    const stem = media.photo.replace(/\.png$/, '');
    for (const [url, width] of entries) {
      if (from === 'server') {
        expect(url).toBe(`${server.origin}${media.photo}?w=${width.slice(0, -1)}&format=${format}&v=${hash}`);
      } else {
        expect(url).toBe(`${stem}-${width}-${hash.slice(0, 12)}.${format}`);
        expect(existsSync(join(out, ...url.split('/').filter(Boolean))), url).toBe(true);
      }
    }
  }
}

/** How a build shows dates and numbers: its language. */
interface Language {
  lang: string;
  cooked: string;
  published: string;
  servings: string;
}
const ENGLISH: Language = { lang: 'en', cooked: 'March 14, 2026', published: 'January 2, 2026', servings: '1,200.5' };
const FRENCH: Language = { lang: 'fr', cooked: '14 mars 2026', published: '2 janvier 2026', servings: '1\u202f200,5' };

/**
 * What every build must show: a page per published row at its slug, each column laid out by its
 * type (Markdown as HTML, dates and numbers in the site's language, images with their size and
 * alt text, tags as a list, relations as links), an index per type and a home page; no drafts.
 */
function checkSite(out: string, language: Language, from: 'server' | 'export'): void {
  const page = (path: string) => readFileSync(join(out, path, 'index.html'), 'utf8');
  const home = page('');
  expect(home).toContain(`<html lang="${language.lang}">`);
  for (const title of Object.values(published)) expect(home).toContain(title);
  for (const title of Object.values(drafts)) expect(home).not.toContain(title);
  expect(home).toContain('href="/recipes/"');
  expect(home).toContain('href="/ingredients/"');

  expect(page('news/harbour-opens')).toContain(`<h1>${published.news}</h1>`);
  const article = page('articles/boats-and-sails');
  expect(article).toContain(`<h1>${published.article}</h1>`);
  // The body is Markdown rendered, never the source in <pre>.
  expect(article).toContain('<h1>Boats</h1>');
  expect(article).not.toContain('<pre>');
  expect(article).toContain('<li>sea</li>');
  expect(article).toContain(language.published);
  // An image column without an alt column: the media library's alt text describes it.
  const image = imgTag(article, media.image);
  expect(image).toContain('width="3"');
  expect(image).toContain('height="2"');
  expect(image).toContain('alt="Boats at the quay"');

  const recipe = page('recipes/sourdough-loaf');
  expect(recipe).toContain(`<h1>${published.recipe}</h1>`);
  expect(recipe).toContain('<h2>Knead well</h2>');
  expect(recipe).toContain('<em>twice</em>');
  expect(recipe).toContain('<li>bread</li><li>slow</li>');
  expect(recipe).toContain(`<time datetime="2026-03-14">${language.cooked}</time>`);
  expect(recipe).toContain(language.servings);
  expect(recipe).toContain('<a href="/ingredients/rye-flour/">Rye flour</a>');
  // A select shows its option's text; long text is escaped, a blank line starting a paragraph.
  expect(recipe).toMatch(/<dt>Difficulty<\/dt>\s*<dd>Easy going<\/dd>/);
  expect(recipe).toMatch(/<p[^>]*>Crusty &lt;b&gt;and&lt;\/b&gt; sour\.<\/p>\s*<p[^>]*>Takes two days\.<\/p>/);
  const photo = imgTag(recipe, media.photo);
  expect(photo).toContain('width="40"');
  expect(photo).toContain('height="30"');
  expect(photo).toContain('alt="A loaf on a board"');
  checkPicture(out, recipe, from);
  // An editor's raw HTML is text on the page, and a script link is no link.
  expect(recipe).toContain('&lt;script&gt;');
  expect(recipe).not.toMatch(/<script/i);
  expect(recipe).not.toContain('href="javascript:');

  const ingredient = page('ingredients/rye-flour');
  expect(ingredient).toContain('<h1>Rye flour</h1>');
  expect(ingredient).toContain('<p class="note">In the pantry: Rye flour</p>');
  expect(ingredient).toMatch(/<dt>Organic<\/dt>\s*<dd>Yes<\/dd>/);

  const recipes = page('recipes');
  expect(recipes).toContain(`<a href="/recipes/sourdough-loaf/">${published.recipe}</a>`);
  expect(recipes).not.toContain(drafts.recipe);
  for (const path of ['news/secret-plans', 'articles/unfinished-article', 'recipes/secret-stew']) {
    expect(existsSync(join(out, path)), path).toBe(false);
  }
  // The images are in the site itself, byte for byte as uploaded.
  expect(readFileSync(join(out, ...media.image.split('/').filter(Boolean)))).toEqual(pngImage());
  expect(readFileSync(join(out, ...media.photo.split('/').filter(Boolean)))).toEqual(PHOTO);
}

async function upload(bytes: Buffer, name: string, to = server): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  const uploaded = await fetch(`${to.api}/uploads`, { method: 'POST', body: form });
  expect(uploaded.status).toBe(201);
  const { id, path, hash } = (await uploaded.json()) as { id: string; path: string; hash: string };
  uploads[path] = { id, hash };
  return path;
}

async function create(path: string, json: unknown, to = server): Promise<string> {
  const created = await request(to, 'POST', path, { json });
  expect(created.response.status, created.text).toBe(201);
  return created.body.id ?? created.body.content_type_id;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'quire-sites-'));
  server = await startTestServer({ dir: join(work, 'quire') });
  siteDatabase = server.postgresDatabase ? ['--database', server.postgresDatabase.url] : ['--db', server.dbFile];
  media.image = await upload(pngImage(), 'boats.png');
  media.photo = await upload(PHOTO, 'loaf.png');
  const described = await request(server, 'PATCH', `/media/${uploads[media.image].id}`, {
    json: { alt: 'Boats at the quay' },
  });
  expect(described.response.status, described.text).toBe(200);
  const row = (title: string, status: string) => ({ title, status, published_at: '2026-01-02 09:00:00' });
  await create('/cms/news', row(published.news, 'published'));
  await create('/cms/news', row(drafts.news, 'draft'));
  await create('/cms/articles', {
    ...row(published.article, 'published'),
    image: media.image,
    tags: ['sea'],
    body: '# Boats',
  });
  await create('/cms/articles', { ...row(drafts.article, 'draft'), image: media.image });

  const text = (name: string, label: string, required = false) => ({ name, label, type: 'text', required });
  await create('/cms-content', {
    title: 'Ingredients',
    columns: [
      text('name', 'Name', true),
      { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'name' },
      { name: 'organic', label: 'Organic', type: 'boolean', required: false },
    ],
  });
  await create('/cms-content', {
    title: 'Recipes',
    columns: [
      text('title', 'Title', true),
      { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' },
      {
        name: 'status',
        label: 'Status',
        type: 'select',
        required: true,
        options: [
          { id: 'draft', text: 'Draft' },
          { id: 'published', text: 'Published' },
        ],
      },
      {
        name: 'difficulty',
        label: 'Difficulty',
        type: 'select',
        required: false,
        options: [{ id: 'easy', text: 'Easy going' }],
      },
      { name: 'summary', label: 'Summary', type: 'textarea', required: false },
      { name: 'servings', label: 'Servings', type: 'number', required: false },
      { name: 'cooked_on', label: 'Cooked on', type: 'date', required: false },
      { name: 'tags', label: 'Tags', type: 'tags', required: false },
      { name: 'photo', label: 'Photo', type: 'image', required: false },
      text('photo_alt', 'Photo description'),
      { name: 'main_ingredient', label: 'Main ingredient', type: 'relation', required: false, target: 'ingredients' },
      { name: 'method', label: 'Method', type: 'markdown', required: false },
    ],
  });
  const rye = await create('/cms/ingredients', { name: 'Rye flour', organic: true });
  await create('/cms/recipes', {
    title: published.recipe,
    status: 'published',
    difficulty: 'easy',
    summary: 'Crusty <b>and</b> sour.\n\nTakes two days.',
    servings: 1200.5,
    cooked_on: '2026-03-14',
    tags: ['bread', 'slow'],
    photo: media.photo,
    photo_alt: 'A loaf on a board',
    main_ingredient: rye,
    method: METHOD,
  });
  await create('/cms/recipes', { title: drafts.recipe, status: 'draft', method: 'Not yet.' });
  await createBlockPages();
  await createTranslations();
});

/** The site's second locale, de (falling back to en), and a story translated but for its summary. */
async function createTranslations(): Promise<void> {
  const locales = await request(server, 'PUT', '/locales', {
    json: {
      default: 'en',
      locales: [
        { code: 'en', label: 'English' },
        { code: 'de', label: 'Deutsch', fallback: ['en'] },
      ],
    },
  });
  expect(locales.response.status, locales.text).toBe(200);
  const localized = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
    name,
    label: name[0].toUpperCase() + name.slice(1),
    type,
    required: false,
    localized: true,
    ...extra,
  });
  await create('/cms-content', {
    title: 'Stories',
    columns: [
      localized('title', 'text', { required: true }),
      localized('slug', 'slug', { parent: 'title' }),
      localized('summary', 'text'),
      localized('body', 'markdown'),
    ],
  });
  await create('/cms/stories?locale=all', STORY);
}

/**
 * The trees of the two locales: the story under /de/ at its de slug with its de title and body, its
 * untranslated summary from en (marked as English), hreflang links from each page to the other and
 * x-default; the default tree where it always was (checkSite and checkPages read it), `lang` its
 * language (QUIRE_LOCALE, else en).
 */
function checkTranslations(out: string, lang: string): void {
  const page = (path: string) => readFileSync(join(out, path, 'index.html'), 'utf8');
  const links = (html: string) =>
    [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)].map(
      (match) => `${match[1]} ${match[2]}`,
    );
  const english = page('stories/harbour-walk');
  const german = page('de/stories/hafenrundgang');
  expect(english).toContain(`<html lang="${lang}">`);
  expect(english).toContain('<h1>Harbour walk</h1>');
  expect(english).toContain('<strong>sea</strong>');
  expect(german).toContain('<html lang="de">');
  expect(german).toContain('<h1>Hafenrundgang</h1>');
  expect(german).toContain('<strong>Meer</strong>');
  expect(german).not.toContain('Harbour walk');
  // The summary has no de value: the en one, marked as English.
  expect(german).toMatch(/<dd lang="en">A walk by the sea<\/dd>/);
  const both = [`${lang} /stories/harbour-walk/`, 'de /de/stories/hafenrundgang/', 'x-default /stories/harbour-walk/'];
  expect(links(english)).toEqual(both);
  expect(links(german)).toEqual(both);
  expect(links(page(''))).toEqual([`${lang} /`, 'de /de/', 'x-default /']);
  // Every type has its tree under /de/, linking within it; the default tree keeps its addresses.
  const home = page('de');
  expect(home).toContain('<html lang="de">');
  expect(home).toContain('href="/de/stories/hafenrundgang/"');
  expect(home).toContain('href="/de/news/harbour-opens/"');
  expect(page('de/recipes/sourdough-loaf')).toContain('<a href="/de/ingredients/rye-flour/">Rye flour</a>');
  expect(page('')).not.toContain('/de/stories/');
  expect(existsSync(join(out, 'stories', 'hafenrundgang'))).toBe(false);
}

/** The landing pages, their bakers and the site settings, with the images they show. */
async function createBlockPages(): Promise<void> {
  blockMedia.hero = await upload(pngImage(48, 36), 'hero.png');
  blockMedia.photos = [await upload(pngImage(8, 6), 'one.png'), await upload(pngImage(6, 8), 'two.png')];
  const column = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
    name,
    label: name[0].toUpperCase() + name.slice(1),
    type,
    required: false,
    ...extra,
  });
  await create('/cms-content', {
    title: 'Site settings',
    type: 'single',
    columns: [column('site_name', 'text', { required: true }), column('tagline', 'text'), column('footer', 'richtext')],
  });
  await create('/cms-content', {
    title: 'Bakers',
    columns: [column('name', 'text', { required: true }), column('slug', 'slug', { parent: 'name' })],
  });
  const baker = await create('/cms/bakers', { name: 'Ada Crumb' });
  await create('/cms-content', {
    title: 'Landing pages',
    columns: [
      column('title', 'text', { required: true }),
      column('slug', 'slug', { required: true, parent: 'title' }),
      column('intro', 'richtext'),
      column('sections', 'blocks', {
        blocks: [
          { name: 'hero', label: 'Hero', columns: [column('title', 'text'), column('image', 'image')] },
          { name: 'text', label: 'Text', columns: [column('body', 'richtext')] },
          {
            name: 'quote',
            label: 'Quote',
            columns: [column('text', 'text'), column('author', 'relation', { target: 'bakers' })],
          },
          {
            name: 'gallery',
            label: 'Gallery',
            columns: [
              column('heading', 'text'),
              column('items', 'blocks', {
                blocks: [
                  { name: 'photo', label: 'Photo', columns: [column('image', 'image'), column('caption', 'text')] },
                ],
              }),
            ],
          },
        ],
      }),
    ],
  });
  // A single type nobody has saved yet: no row, so no page and no link to one.
  await create('/cms-content', { title: 'Footer', type: 'single', columns: [column('note', 'text')] });
  const about = await create('/cms/landing_pages', { title: 'About us' });
  const saved = await request(server, 'PUT', '/cms/site_settings', {
    json: { site_name: 'Harbour Bakery', tagline: 'Bread by the sea', footer: `<p>Open <em>daily</em>.</p>${XSS}` },
  });
  expect(saved.response.status, saved.text).toBe(201);
  const home = await create('/cms/landing_pages', {
    title: 'Welcome',
    intro: `<h2>Fresh every morning</h2><p>We <strong>bake</strong> at dawn.</p>${XSS}<script>alert(3)</script>`,
    sections: [
      { type: 'hero', title: 'Bake with us', image: blockMedia.hero },
      {
        type: 'text',
        body: `<p>Our <strong>story</strong> in <a href="quire://row/landing-pages/${about}">about us</a>.</p>${XSS}`,
      },
      { type: 'quote', text: 'The best rye in town.', author: baker },
      {
        type: 'gallery',
        heading: 'The oven',
        items: [
          { type: 'photo', image: blockMedia.photos[0], caption: 'Morning' },
          { type: 'photo', image: blockMedia.photos[1], caption: 'Evening' },
        ],
      },
    ],
  });
  const read = await request(server, 'GET', `/cms/landing_pages/${home}`);
  const row = read.body.rows[0];
  stored.intro = row.intro;
  stored.body = row.sections[1].body;
  stored.footer = (await request(server, 'GET', '/cms/site_settings')).body.rows[0].footer;
  // The server cleaned the payloads on the way in.
  for (const html of Object.values(stored)) {
    expect(html).not.toMatch(/onerror|javascript:|<script/i);
  }
}

/** The landing page and the settings page as every build must show them. */
function checkPages(out: string): void {
  const page = (path: string) => readFileSync(join(out, path, 'index.html'), 'utf8');
  const welcome = page('landing_pages/welcome');
  expect(welcome).toContain('<h1>Welcome</h1>');
  // Rich text is the stored HTML as markup, never escaped.
  expect(stored.intro).toContain('<strong>bake</strong>');
  expect(welcome).toContain(stored.intro);
  // Each block in order, hero, text and quote by their own layouts, the gallery by the generic one.
  const at = (text: string) => {
    const index = welcome.indexOf(text);
    expect(index, `${text} in ${welcome}`).toBeGreaterThan(-1);
    return index;
  };
  const order = [
    at('<header class="block block-hero"'),
    at('<h2>Bake with us</h2>'),
    at('<div class="block block-text"'),
    at('Our <strong>story</strong>'),
    at('<figure class="block block-quote"'),
    at('<blockquote>The best rye in town.</blockquote>'),
    // A relation inside a block links to the related row's page.
    at('<figcaption><a href="/bakers/ada-crumb/">Ada Crumb</a></figcaption>'),
    at('<section class="block block-gallery"'),
    at('The oven'),
    at('<section class="block block-photo"'),
    at('Morning'),
    at('Evening'),
  ];
  expect([...order].sort((a, b) => a - b)).toEqual(order);
  const image = imgTag(welcome, blockMedia.hero);
  expect(image).toContain('width="48"');
  expect(image).toContain('height="36"');
  expect(imgTag(welcome, blockMedia.photos[0])).toContain('width="8"');
  expect(imgTag(welcome, blockMedia.photos[1])).toContain('height="8"');
  // A row link inside a block's rich text points at that row's page on the site.
  expect(welcome).toContain('<a href="/landing_pages/about-us/">about us</a>');
  expect(welcome).not.toContain('quire://');

  const settings = page('site_settings');
  expect(settings).toContain('<h1>Harbour Bakery</h1>');
  expect(settings).toContain('Bread by the sea');
  expect(settings).toContain(stored.footer);
  expect(settings).toContain('<em>daily</em>');
  // One page, not a list: no row pages under it.
  expect(readdirSync(join(out, 'site_settings'))).toEqual(['index.html']);
  expect(page('')).toContain('href="/site_settings/"');
  expect(existsSync(join(out, 'footer'))).toBe(false);
  expect(page('')).not.toContain('href="/footer/"');

  for (const html of [welcome, settings]) {
    expect(html).not.toMatch(/onerror|javascript:|<script/i);
  }
  for (const path of [blockMedia.hero, ...blockMedia.photos]) {
    expect(existsSync(join(out, ...path.split('/').filter(Boolean))), path).toBe(true);
  }
}

afterAll(async () => {
  if (server && !serverStopped) await server.stop();
  await server?.postgresDatabase?.drop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe(`the example sites (the running Quire on ${testEngine()}, the export from SQLite)`, () => {
  const live = () => ({ QUIRE_URL: server.origin, QUIRE_IMAGE_WIDTHS: IMAGE_WIDTHS });

  it('build every content type, blocks and a single type with Astro and Eleventy from a running Quire', async () => {
    for (const site of ['astro', 'eleventy'] as const) {
      const out = await build(site, 'live', live(), true);
      if (site === 'astro') liveAstro = dirname(out);
      checkSite(out, ENGLISH, 'server');
      checkPages(out);
      checkTranslations(out, 'en');
      // Every type the server lists has its index, even one without rows.
      expect(existsSync(join(out, 'menu_items', 'index.html')), site).toBe(true);
    }
  });

  it("sync Astro's rows from the change feed on the next build: only the rows changed since are read", async () => {
    // The first test's build read every row; this one builds its copy again.
    expect(liveAstro, 'the Astro build of the first test').not.toBe('');
    const copy = liveAstro;
    const id = await create('/cms/news', {
      title: 'Late news',
      status: 'published',
      published_at: '2026-01-03 09:00:00',
    });
    const second = await runBuild('astro', copy, live());
    expect(second.code, second.output).toBe(0);
    expect(second.output).toContain('1 changed rows from the change feed');
    expect(second.output).not.toMatch(/\d+ published rows from/);
    const page = join(copy, 'site-out', 'news', 'late-news', 'index.html');
    expect(readFileSync(page, 'utf8')).toContain('Late news');
    // A delete reaches the next build the same way (and leaves the site as the other tests expect it).
    expect((await request(server, 'DELETE', `/cms/news/${id}`)).response.status).toBe(200);
    const third = await runBuild('astro', copy, live());
    expect(third.code, third.output).toBe(0);
    expect(third.output).toContain('1 changed rows from the change feed');
    expect(existsSync(page)).toBe(false);
  });

  it('show a save in astro dev without a restart', async () => {
    const copy = prepare('astro', 'dev');
    const port = await freePort();
    const dev = spawn(process.execPath, [SITES.astro.cli, 'dev', '--host', '127.0.0.1', '--port', String(port)], {
      cwd: copy,
      env: {
        ...process.env,
        ASTRO_TELEMETRY_DISABLED: '1',
        NODE_OPTIONS: `--import ${join(root, 'e2e', 'support', 'loopback-only.mjs')}`,
        NO_COLOR: '1',
        QUIRE_URL: server.origin,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    dev.stdout.on('data', (chunk) => {
      output += chunk;
    });
    dev.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const page = async (path: string) => {
      const response = await fetch(`http://127.0.0.1:${port}${path}`).catch(() => null);
      return response ? { status: response.status, text: await response.text() } : { status: 0, text: '' };
    };
    try {
      await vi.waitFor(async () => expect((await page('/news/')).status, output).toBe(200), {
        timeout: 60_000,
        interval: 500,
      });
      const id = await create('/cms/news', {
        title: 'Dev news',
        status: 'published',
        published_at: '2026-01-04 09:00:00',
      });
      await vi.waitFor(async () => expect((await page('/news/dev-news/')).text, output).toContain('Dev news'), {
        timeout: 30_000,
        interval: 500,
      });
      expect(output).toContain('1 changed rows from the change feed');
      expect((await request(server, 'DELETE', `/cms/news/${id}`)).response.status).toBe(200);
    } finally {
      const closed = new Promise((resolve) => dev.once('close', resolve));
      dev.kill();
      await closed;
    }
  });

  it('refuse a QUIRE_TYPES name that is no content type, naming the types there are', async () => {
    for (const site of ['astro', 'eleventy'] as const) {
      const result = await runBuild(site, prepare(site, 'unknown'), {
        QUIRE_URL: server.origin,
        QUIRE_TYPES: 'recipes,soups',
      });
      expect(result.code, result.output).not.toBe(0);
      expect(result.output).toContain('QUIRE_TYPES names no content type soups');
      expect(result.output).toContain('news, categories, articles, menu_items, ingredients, recipes');
    }
  });

  it('build the types QUIRE_TYPES names, in QUIRE_LOCALE, from a quire export folder with the server stopped', async () => {
    // A type whose table the export does not use as its folder's name (`index.json` is the
    // export's own): the examples find its pages through index.json.
    await create('/cms-content', {
      title: 'Index',
      columns: [
        { name: 'term', label: 'Term', type: 'text', required: true },
        { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'term' },
      ],
    });
    await create('/cms/index', { term: 'Keel' });
    await server.stop();
    serverStopped = true;
    let sqliteFile = server.dbFile;
    if (server.postgresDatabase) {
      sqliteFile = join(work, 'copy.sqlite');
      // In this process: a `quire` process of its own would take longer to start than to copy.
      const [out, err] = [captureOutput(), captureOutput()];
      const searchIndexes = { folder: join(work, 'search-indexes') };
      const code = await copyCommand(
        ['--from', server.postgresDatabase.url, '--to', sqliteFile],
        { out, err },
        { searchIndexes },
      );
      expect(code, err.text).toBe(0);
    }
    const exported = join(work, 'export');
    const result = await quire(
      'export',
      '--db',
      sqliteFile,
      '--out',
      exported,
      '--published-only',
      '--image-widths',
      IMAGE_WIDTHS,
      '--image-formats',
      'avif,webp',
    );
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/Exported 12 content types, 10 rows and 5 media files/);
    const index = JSON.parse(readFileSync(join(exported, 'index.json'), 'utf8'));
    const indexType = index.content_types.find((type: { table: string }) => type.table === 'index');
    expect(indexType?.pages).toMatch(/\/pages\/$/);
    expect(indexType?.pages).not.toBe('index/pages/');
    // Nothing listens at QUIRE_URL now: the builds read the folder only.
    const offline = {
      QUIRE_EXPORT: exported,
      QUIRE_URL: server.origin,
      QUIRE_TYPES: 'news,articles,recipes,ingredients,index,site_settings,bakers,landing_pages,footer,stories',
      QUIRE_LOCALE: 'fr',
    };
    for (const site of ['astro', 'eleventy'] as const) {
      const out = await build(site, 'export', offline);
      checkSite(out, FRENCH, 'export');
      checkPages(out);
      checkTranslations(out, 'fr');
      expect(readFileSync(join(out, 'index', 'keel', 'index.html'), 'utf8'), site).toContain('<h1>Keel</h1>');
      expect(existsSync(join(out, 'menu_items')), site).toBe(false);
      expect(existsSync(join(out, 'categories')), site).toBe(false);
    }
  });
});
