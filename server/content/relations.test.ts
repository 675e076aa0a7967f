import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error.js';
import { starterType } from '../test-support/content-types.js';
import { type ContentType, contentTypeFromRecord } from './content-type.js';
import { parseListQuery } from './list-query.js';
import { describedWithout, hiddenRelations } from './relations.js';
import { parseRowInput } from './row-input.js';

/** `articles`: a category (a relation to `categories`, required) and a parent article (to itself). */
const articles = contentTypeFromRecord({
  id: 'a',
  slug: 'articles',
  table_name: 'articles',
  title: 'Articles',
  status: 'published',
  type: 'collection',
  custom: 1,
  columns: JSON.stringify([
    { name: 'title', label: 'Title', type: 'text', required: true },
    { name: 'category', label: 'Category', type: 'relation', target: 'categories', required: true },
    { name: 'parent', label: 'Parent', type: 'relation', target: 'articles', required: false },
  ]),
  preview_path: null,
  position: 0,
  flat_meta: 0,
  created_at: '2026-01-01 00:00:00.000000',
  updated_at: '2026-01-01 00:00:00.000000',
});
const categories = starterType('categories');
const registry = {
  findBySlug: (slug: string): ContentType | undefined => [articles, categories].find((type) => type.slug === slug),
};

/** What parsing threw: its status and message. */
function refusal(run: () => unknown): { status: number; message: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return { status: (error as AppError).status, message: (error as AppError).message };
  }
  throw new Error('nothing was refused');
}

describe('hiddenRelations', () => {
  it('hides the relations whose target type a limit leaves out, and none without a limit', () => {
    expect([...hiddenRelations(articles, registry, null)]).toEqual([]);
    expect([...hiddenRelations(articles, registry, ['articles'])]).toEqual(['category']);
    expect([...hiddenRelations(articles, registry, ['articles', 'categories'])]).toEqual([]);
    // A relation whose target type is gone leads nowhere a limited credential may go either.
    expect([...hiddenRelations(articles, { findBySlug: () => undefined }, ['articles'])]).toEqual([
      'category',
      'parent',
    ]);
  });
});

describe('describedWithout', () => {
  it('takes the target off hidden relations, which then take no filter or order, and leaves the type itself alone', () => {
    const described = describedWithout(articles, new Set(['category']));
    const column = described.publishedColumns.find((one) => one.name === 'category');
    expect(column).toEqual({
      name: 'category',
      label: 'Category',
      type: 'relation',
      required: true,
      filterable: false,
      orderable: false,
    });
    expect(described.columnsByName.get('category')).not.toHaveProperty('target');
    expect(described.publishedColumns.find((one) => one.name === 'parent')).toMatchObject({
      target: 'articles',
      filterable: true,
    });
    expect(articles.columnsByName.get('category')?.target).toBe('categories');
    expect(describedWithout(articles, new Set())).toBe(articles);
  });
});

describe('writes and lists naming a hidden relation', () => {
  const hidden = new Set(['category']);

  it('leave it as it is when it comes back empty, even when it is required', () => {
    for (const empty of [null, '']) {
      const input = parseRowInput(articles, { title: 'T', category: empty }, 'update', hidden);
      expect(input.values.has('category')).toBe(false);
      expect(input.values.get('title')).toBe('T');
    }
  });

  it('refuse any value, existing or not, with one 403', () => {
    const answers = ['c1', { id: 'c1' }, 'nope', 42].map((value) =>
      refusal(() => parseRowInput(articles, { title: 'T', category: value }, 'update', hidden)),
    );
    expect(new Set(answers.map((answer) => `${answer.status} ${answer.message}`)).size).toBe(1);
    expect(answers[0].status).toBe(403);
    expect(answers[0].message).not.toContain('categories');
  });

  it('refuse filters and orders on it with the same 403, and keep the others', () => {
    const answers = [
      { filter: 'category.slug=x' },
      { filter: 'category=c1' },
      { filter: 'category:empty' },
      { order: 'category' },
    ].map((query) => refusal(() => parseListQuery(articles, query, registry, hidden)));
    expect(new Set(answers.map((answer) => `${answer.status} ${answer.message}`)).size).toBe(1);
    expect(answers[0].status).toBe(403);
    expect(parseListQuery(articles, { filter: 'parent=p1', order: 'parent' }, registry, hidden).page.order).toBe(
      'parent',
    );
  });
});
