import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { packageRoot } from '../config/package-root.js';
import { type ContentType, contentTypeFromRecord } from '../content/content-type.js';
import type { ContentTypeRecord } from '../db/repositories/content-type-repository.js';
import { openApiProblems, ResponseChecker } from '../test-support/openapi-responses.js';
import { typeScriptDeclarations } from '../types-gen/types-generator.js';
import { openApiDocument } from './openapi-document.js';

const LOCALES: LocalesDocument = {
  default: 'en',
  locales: [
    { code: 'en', label: 'English' },
    { code: 'de', label: 'Deutsch', fallback: ['en'] },
    { code: 'de-AT', label: 'Deutsch (Österreich)', fallback: ['de', 'en'] },
  ],
};

function typeOf(table: string, columns: unknown[], kind: 'collection' | 'single' = 'collection'): ContentType {
  const record: ContentTypeRecord = {
    id: table,
    slug: table,
    table_name: table,
    title: table,
    status: 'published',
    type: kind,
    custom: 1,
    columns: JSON.stringify(columns),
    preview_path: null,
    position: 0,
    flat_meta: 0,
    created_at: '2026-01-01 00:00:00.000000',
    updated_at: '2026-01-01 00:00:00.000000',
  };
  return contentTypeFromRecord(record);
}

const ARTICLES = typeOf('articles', [
  { name: 'title', label: 'Title', type: 'text', required: true, localized: true },
  { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title', localized: true },
  { name: 'body', label: 'Body', type: 'markdown', required: false, localized: true },
  { name: 'tags', label: 'Tags', type: 'tags', required: false, localized: true },
  { name: 'cover', label: 'Cover', type: 'image', required: false, localized: true },
  { name: 'summary', label: 'Summary', type: 'textarea', required: false, localized: true },
  { name: 'pages', label: 'Pages', type: 'number', required: false },
]);
const SETTINGS = typeOf(
  'settings',
  [
    { name: 'tagline', label: 'Tagline', type: 'text', required: false, localized: true },
    { name: 'email', label: 'Email', type: 'text', required: false },
  ],
  'single',
);
const PLAIN = typeOf('notes', [{ name: 'text', label: 'Text', type: 'text', required: true }]);

const document = openApiDocument([ARTICLES, SETTINGS, PLAIN], { version: '1.0.0', locales: LOCALES });
const schemas = document.components.schemas as Record<string, any>;
const paths = document.paths as Record<string, any>;

const shared = { meta: null, created_at: '2026-01-01 00:00:00', updated_at: '2026-01-01 00:00:00' };
const system = { ...shared, created_by: null, updated_by: null };
const oneLocale = {
  id: 'a1',
  title: 'Hafen',
  slug: 'hafen',
  body: null,
  tags: ['see'],
  cover: null,
  summary: 'Harbour walk',
  pages: 3,
  ...system,
  locale: 'de-AT',
  fallbacks: { title: 'de', summary: 'en' },
};
const own = (en: unknown, de: unknown, deAt: unknown) => ({ en, de, 'de-AT': deAt });
const allLocales = {
  id: 'a1',
  title: own('Harbour', 'Hafen', null),
  slug: own('harbour', 'hafen', null),
  body: own(null, null, null),
  tags: own(['sea'], ['see'], null),
  cover: own(null, null, null),
  summary: own('Harbour walk', null, null),
  pages: 3,
  ...system,
  locale: 'all',
};

describe('the OpenAPI document of a site with localized columns', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(await openApiProblems(document)).toEqual([]);
  });

  it('describes a row in one locale and in every locale, and refuses what breaks them', () => {
    const checker = new ResponseChecker(document);
    expect(checker.matches('Article', oneLocale)).toEqual([]);
    expect(checker.matches('ArticleAllLocales', allLocales)).toEqual([]);
    // Each shape is its own: a row of one is not a row of the other.
    expect(checker.matches('Article', allLocales)).not.toEqual([]);
    expect(checker.matches('ArticleAllLocales', oneLocale)).not.toEqual([]);
    expect(checker.matches('Article', { ...oneLocale, locale: 'fr' })).not.toEqual([]);
    expect(checker.matches('Article', { ...oneLocale, fallbacks: { pages: 'en' } })).not.toEqual([]);
    expect(checker.matches('Article', { ...oneLocale, fallbacks: { title: 'fr' } })).not.toEqual([]);
    const { fallbacks: _, ...withoutFallbacks } = oneLocale;
    expect(checker.matches('Article', withoutFallbacks)).not.toEqual([]);
    expect(checker.matches('ArticleAllLocales', { ...allLocales, title: { en: 'Harbour' } })).not.toEqual([]);
    expect(checker.matches('ArticleAllLocales', { ...allLocales, pages: own(3, 3, 3) })).not.toEqual([]);
    // A required localized field may read null in a locale whose chain holds none.
    expect(checker.matches('Article', { ...oneLocale, title: null })).toEqual([]);
    const list = { rows: [allLocales], count: 1 };
    expect(checker.matches('ArticleAllLocalesList', list)).not.toEqual([]); // the other members are required
  });

  it('takes ?locale= on every read and write of a localized type, with both shapes', () => {
    const codes = ['en', 'de', 'de-AT', 'all'];
    const operations = [
      paths['/cms/articles'].get,
      paths['/cms/articles'].post,
      paths['/cms/articles/{id}'].get,
      paths['/cms/articles/{id}'].post,
      paths['/cms/articles/{id}'].put,
      paths['/cms/articles/{id}'].patch,
      paths['/cms/articles/{id}'].delete,
      paths['/cms/settings'].get,
      paths['/cms/settings'].put,
      paths['/cms/settings/{id}'].patch,
    ];
    for (const operation of operations) {
      const locale = operation.parameters.find((parameter: { name: string }) => parameter.name === 'locale');
      expect(locale.schema).toEqual({ type: 'string', enum: codes, default: 'en' });
    }
    const list = paths['/cms/articles'].get.responses['200'].content['application/json'].schema;
    expect(list).toEqual({
      oneOf: [{ $ref: '#/components/schemas/ArticleList' }, { $ref: '#/components/schemas/ArticleAllLocalesList' }],
    });
    const body = paths['/cms/articles/{id}'].put.requestBody.content['application/json'].schema;
    expect(body.anyOf.map((one: { $ref: string }) => one.$ref.split('/').pop())).toEqual([
      'ArticleUpdate',
      'ArticleAllLocalesUpdate',
    ]);
    // A create with every locale needs the default locale's required values; others may stay empty.
    expect(schemas.ArticleAllLocalesInput.required).toEqual(['title']);
    expect(schemas.ArticleAllLocalesInput.properties.title.required).toEqual(['en']);
    expect(schemas.ArticleAllLocalesUpdate.properties.title.required).toBeUndefined();
    expect(schemas.LocaleCode.enum).toEqual(['en', 'de', 'de-AT']);
    expect(document['x-quire-content-types'].find((type) => type.table === 'articles')?.localized).toBe(true);
  });

  it('describes a type without localized columns as it did before', () => {
    const alone = openApiDocument([PLAIN], { version: '1.0.0', locales: LOCALES });
    expect(alone.components.schemas.LocaleCode).toBeUndefined();
    expect(alone.components.schemas.Note).toEqual(schemas.Note);
    expect(alone.components.schemas.NoteAllLocales).toBeUndefined();
    expect(schemas.NoteAllLocales).toBeUndefined();
    expect(Object.keys(schemas.Note.properties)).not.toContain('locale');
    const names = paths['/cms/notes'].get.parameters.map((parameter: { name: string }) => parameter.name);
    expect(names).toEqual(['filter', 'limit', 'offset', 'order', 'desc', 'If-None-Match']);
    expect(paths['/cms/notes'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/NoteList',
    });
    expect(document['x-quire-content-types'].find((type) => type.table === 'notes')).not.toHaveProperty('localized');
  });
});

describe('the TypeScript declarations of a site with localized columns', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quire-localized-types-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('compile with tsc into both shapes, and a wrong use fails to compile', () => {
    writeFileSync(join(dir, 'quire-types.d.ts'), typeScriptDeclarations(document));
    const consumer = `import type { Article, ArticleAllLocales, ArticleAllLocalesInput, ArticleList, Collections, LocaleCode, Note } from './quire-types.js';

export function heading(row: Article): string {
  const from: LocaleCode | undefined = row.fallbacks.title;
  return \`\${row.title ?? ''} (\${row.locale}\${from ? \`, from \${from}\` : ''})\`;
}
export function titles(list: ArticleList): (string | null)[] {
  return list.rows.map((row) => row.title);
}
export function german(row: ArticleAllLocales): string | null {
  return row.title.de ?? row.title.en;
}
export const all: Collections['articles']['allLocales']['row'] = {} as ArticleAllLocales;
export const settingsRead: Collections['settings']['allLocales']['item']['rows'] = [];
export const draft: ArticleAllLocalesInput = { title: { en: 'Harbour', de: 'Hafen' } };
export const pages = (row: ArticleAllLocales): number | null => row.pages;
export const plain = (row: Note): string => row.text;
export const austrian = (row: ArticleAllLocales): string | null => row.title['de-AT'];

// @ts-expect-error: every locale is named in a read: French is not a locale of the site
export const french = (row: ArticleAllLocales) => row.title.fr;
// @ts-expect-error: a row read in one locale has plain values
export const notAnObject = (row: Article) => row.title.en;
// @ts-expect-error: a shared field is one value in every locale
export const sharedByLocale = (row: ArticleAllLocales) => row.pages.en;
// @ts-expect-error: a create names the default locale's required title
export const noEnglish: ArticleAllLocalesInput = { title: { de: 'Hafen' } };
// @ts-expect-error: a type without localized columns has no row in every locale
export const noAll: Collections['notes']['allLocales'] = null;
// @ts-expect-error: rows of a type without localized columns carry no locale
export const noLocale = (row: Note) => row.locale;
`;
    const file = join(dir, 'consumer.ts');
    writeFileSync(file, consumer);
    const tsc = join(packageRoot(), 'node_modules', 'typescript', 'bin', 'tsc');
    const args = [
      '--noEmit',
      '--strict',
      '--target',
      'es2022',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
    ];
    const result = spawnSync(process.execPath, [tsc, ...args, file], { encoding: 'utf8', cwd: dir });
    expect(`${result.stdout}${result.stderr}`).toBe('');
    expect(result.status).toBe(0);

    writeFileSync(file, `${consumer}\nexport const typo = (row: Article) => row.locale.toFixed();\n`);
    const wrong = spawnSync(process.execPath, [tsc, ...args, file], { encoding: 'utf8', cwd: dir });
    expect(wrong.status).not.toBe(0);
    expect(`${wrong.stdout}`).toContain("Property 'toFixed' does not exist");
  }, 60_000);
});
