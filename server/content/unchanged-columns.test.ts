import { describe, expect, it } from 'vitest';
import { withoutUnchanged } from './unchanged-columns.js';

describe('withoutUnchanged', () => {
  it('leaves out the columns an update would set to the value they hold', () => {
    const changes = { title: 'Same', status: 'draft', published_at: null, meta: '{"title":"x"}', body: 'new' };
    withoutUnchanged(changes, {
      id: 'a',
      title: 'Same',
      status: 'published',
      published_at: null,
      meta: '{"title":"x"}',
      body: 'old',
    });
    expect(changes).toEqual({ status: 'draft', body: 'new' });
  });

  it('keeps a value read back in another form (not identical) and one the row does not hold', () => {
    const changes = { price: 3, flag: 1, added: null };
    withoutUnchanged(changes, { price: '3', flag: true });
    expect(changes).toEqual({ price: 3, flag: 1, added: null });
  });
});
