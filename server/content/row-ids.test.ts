import { describe, expect, it } from 'vitest';
import { isValidRowId, newRowId } from './row-ids.js';

describe('row ids', () => {
  it('accepts URL-safe ids up to 128 characters, and new ones', () => {
    for (const id of ['a', 'post-1', 'A.b_c~d', 'x'.repeat(128), 'trash-1', 'Trash', newRowId()]) {
      expect(isValidRowId(id), id).toBe(true);
    }
  });

  it('refuses ids that are empty, too long, not URL-safe, or a path segment of their own', () => {
    // `trash` is the path of the type's trash: a row with that id could not be read at its URL.
    for (const id of ['', 'x'.repeat(129), 'a/b', 'a b', 'é', '%2F', '.', '..', 'trash']) {
      expect(isValidRowId(id), id).toBe(false);
    }
  });
});
