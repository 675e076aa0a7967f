import { describe, expect } from 'vitest';
import { request, runScenarios } from '../test-support/api-scenario.js';
import { countRows } from '../test-support/seed.js';

const news = { status: 'draft', published_at: '2025-01-01 10:00:00' };

describe('slugs', () => {
  runScenarios([
    {
      name: 'are generated from the title, transliterated to ASCII',
      method: 'POST',
      url: '/cms/news',
      body: { ...news, title: 'Über Café' },
      expectedStatus: 201,
      expectedContent: ['"slug":"uber-cafe"'],
    },
    {
      name: 'get a -2 suffix when the generated slug is taken',
      method: 'POST',
      url: '/cms/news',
      body: { ...news, title: 'uber cafe' },
      expectedStatus: 201,
      expectedContent: ['"slug":"uber-cafe-2"'],
    },
    {
      name: 'get a -3 suffix next',
      method: 'POST',
      url: '/cms/news',
      body: { ...news, title: 'ÜBER CAFÉ!' },
      expectedStatus: 201,
      expectedContent: ['"slug":"uber-cafe-3"'],
    },
    {
      name: 'are normalised and kept when given',
      method: 'POST',
      url: '/cms/news',
      body: { ...news, title: 'Anything', slug: 'My Own  Slug!' },
      expectedStatus: 201,
      expectedContent: ['"slug":"my-own-slug"'],
    },
    {
      name: 'given but already taken by another row are a 409 naming the slug',
      method: 'POST',
      url: '/cms/news',
      body: { ...news, title: 'Different', slug: 'uber-cafe' },
      expectedStatus: 409,
      async expect(body, _response, server) {
        expect(body.error).toMatchObject({ code: 'conflict', fields: { slug: 'is already taken' } });
        expect(await countRows(server, 'news')).toBe(4);
      },
    },
    {
      name: 'given with no letters or digits are a 400',
      method: 'POST',
      url: '/cms/news',
      body: { ...news, title: 'Fine', slug: '!!!' },
      expectedStatus: 400,
      expectedContent: ['"slug":"must contain letters or digits"'],
    },
    {
      name: 'cannot be generated from a title with no letters or digits',
      method: 'POST',
      url: '/cms/news',
      body: { ...news, title: '???' },
      expectedStatus: 400,
      expectedContent: ['"slug":"is required; give one or a title with letters or digits"'],
    },
    {
      name: 'are unique within a type only',
      method: 'POST',
      url: '/cms/categories',
      body: { title: 'Über Café' },
      expectedStatus: 201,
      expectedContent: ['"slug":"uber-cafe"'],
    },
    {
      name: 'may be changed to the row’s own slug (not a conflict with itself)',
      method: 'PUT',
      url: '/cms/news/own',
      body: { slug: 'own-slug' },
      async before(server) {
        await server.services.rows.create(
          server.services.registry.requireByTable('news'),
          { ...news, title: 'Own', slug: 'own-slug' },
          'own',
        );
      },
      expectedStatus: 200,
      expectedContent: ['"slug":"own-slug"'],
    },
    {
      name: 'cannot be changed to another row’s slug',
      method: 'PUT',
      url: '/cms/news/own',
      body: { slug: 'uber-cafe-2' },
      expectedStatus: 409,
      expectedContent: ['"slug":"is already taken"'],
    },
  ]);
});

describe('SEO meta', () => {
  runScenarios([
    {
      name: 'is null when no SEO data is sent',
      method: 'POST',
      url: '/cms/news',
      body: { ...news, title: 'No meta' },
      expectedStatus: 201,
      expectedContent: ['"meta":null'],
    },
    {
      name: 'is read from meta[title], meta[description], meta[keywords]',
      method: 'POST',
      url: '/cms/news/with-meta',
      body: { ...news, title: 'Meta', 'meta[title]': 'T', 'meta[description]': 'D', 'meta[keywords]': 'a, b' },
      expectedStatus: 201,
      expect(body) {
        expect(body.rows[0].meta).toEqual({ title: 'T', description: 'D', keywords: 'a, b' });
      },
    },
    {
      name: 'is read from the flat meta_title names too, filling missing members with ""',
      method: 'POST',
      url: '/cms/news',
      body: { ...news, title: 'Flat', meta_title: 'Flat title' },
      expectedStatus: 201,
      expect(body) {
        expect(body.rows[0].meta).toEqual({ title: 'Flat title', description: '', keywords: '' });
      },
    },
    {
      name: 'is merged member by member on update',
      method: 'PUT',
      url: '/cms/news/with-meta',
      body: { 'meta[keywords]': 'c' },
      expectedStatus: 200,
      expect(body) {
        expect(body.meta).toEqual({ title: 'T', description: 'D', keywords: 'c' });
      },
    },
    {
      name: 'resolves the page meta of a row from its meta',
      url: '/cms/news/with-meta',
      expectedStatus: 200,
      expect(body) {
        expect(body.meta).toEqual({ title: 'T', description: 'D', keywords: 'c' });
      },
    },
    {
      name: 'is cleared by an empty meta value',
      method: 'PUT',
      url: '/cms/news/with-meta',
      body: { meta: '' },
      expectedStatus: 200,
      expectedContent: ['"meta":null'],
    },
    {
      name: 'becomes null when every member is emptied',
      method: 'PUT',
      url: '/cms/news/with-meta',
      json: { meta: { title: 'Only' } },
      expectedStatus: 200,
      async expect(body, _response, server) {
        expect(body.meta).toEqual({ title: 'Only', description: '', keywords: '' });
        const { body: cleared } = await request(server, 'PUT', '/cms/news/with-meta', { body: { 'meta[title]': '' } });
        expect(cleared.meta).toBeNull();
      },
    },
    {
      name: 'refuses members other than title, description and keywords',
      method: 'PUT',
      url: '/cms/news/with-meta',
      body: { 'meta[author]': 'x' },
      expectedStatus: 400,
      expectedContent: ['"meta[author]"'],
    },
    {
      name: 'refuses meta nested deeper than one level',
      method: 'PUT',
      url: '/cms/news/with-meta',
      json: { meta: { title: { deep: 'x' } } },
      expectedStatus: 400,
      expectedContent: ['"meta[title]":"must be a string"'],
    },
  ]);
});
