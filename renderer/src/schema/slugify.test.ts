import { describe, expect, it } from 'vitest';
import { slugify as serverSlugify } from '../../../server/content/slugs.js';
import { loadTransliteration, slugify } from './slugify.js';

const SAMPLES = [
  'Harbour festival opens',
  'Café Müller: 50 years!',
  'Smørrebrød pop-up',
  'Straße 42',
  'Привет мир',
  '東京タワー',
  'İstanbul’da ılık bir gün',
  'Ελληνικά νέα',
  '  --Already-a-slug--  ',
  '!!! ???',
  'x'.repeat(300),
];

describe('slugs in the editor', () => {
  it('are made from plain ASCII without the transliteration tables', () => {
    expect(slugify('Harbour festival: day 2')).toBe('harbour-festival-day-2');
  });

  it('are exactly the server’s once the tables have loaded, whatever the script', async () => {
    await loadTransliteration();
    for (const text of SAMPLES) expect(slugify(text), text).toBe(serverSlugify(text));
  });
});
