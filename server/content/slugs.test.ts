import { describe, expect, it } from 'vitest';
import { isSlug, MAX_SLUG_LENGTH, uniqueSlug } from '../../common/slug-rules.js';
import { slugify } from './slugs.js';

describe('slugify', () => {
  it.each([
    ['Über Café', 'uber-cafe'],
    ['Hello, World!', 'hello-world'],
    ['  --Already-a-slug--  ', 'already-a-slug'],
    ['Smørrebrød & jalapeño', 'smorrebrod-jalapeno'],
    ['Naïve façade', 'naive-facade'],
    ['Straße 42', 'strasse-42'],
    ['Привет мир', 'privet-mir'],
    ['multiple   spaces\tand\nlines', 'multiple-spaces-and-lines'],
  ])('turns %j into %j', (text, slug) => {
    expect(slugify(text)).toBe(slug);
  });

  it('returns an empty string when nothing sluggable is left', () => {
    expect(slugify('!!! ???')).toBe('');
  });

  it('cuts long text at a word boundary within the maximum length', () => {
    const slug = slugify('word '.repeat(100));
    expect(slug.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    expect(slug.endsWith('word')).toBe(true);
  });
});

describe('isSlug', () => {
  it('accepts lower-case words joined by single hyphens', () => {
    expect(isSlug('uber-cafe-2')).toBe(true);
  });
  it.each(['Upper', 'double--hyphen', '-leading', 'trailing-', 'spa ce', ''])('refuses %j', (value) => {
    expect(isSlug(value)).toBe(false);
  });
});

describe('uniqueSlug', () => {
  it('keeps the base when it is free', () => {
    expect(uniqueSlug('news', () => false)).toBe('news');
  });
  it('appends -2, -3 ... until a free slug is found', () => {
    const taken = new Set(['news', 'news-2', 'news-3']);
    expect(uniqueSlug('news', (candidate) => taken.has(candidate))).toBe('news-4');
  });
  it('keeps suffixed slugs within the maximum length', () => {
    const base = 'a'.repeat(MAX_SLUG_LENGTH);
    const slug = uniqueSlug(base, (candidate) => candidate === base);
    expect(slug.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    expect(slug.endsWith('-2')).toBe(true);
  });
});
