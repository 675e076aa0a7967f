import { describe, expect, it } from 'vitest';
import { PrefixSet } from './prefix-set.js';

describe('PrefixSet', () => {
  it('lists exactly the members starting with a prefix, before and after additions are merged in', () => {
    const initial = ['news', 'news-2', 'newsletter', 'new', 'old', 'über', 'über-2', ''];
    const set = new PrefixSet(initial);
    const added: string[] = [];
    for (let n = 3; n < 400; n++) {
      const value = n % 2 === 0 ? `news-${n}` : `über-${n}`;
      set.add(value);
      added.push(value);
      set.add(value); // a second time changes nothing
    }
    const all = [...initial, ...added];
    for (const prefix of ['news', 'news-', 'news-1', 'new', 'über', 'ü', 'o', '', 'zzz', 'news-399']) {
      expect([...set.startingWith(prefix)].sort(), prefix).toEqual(
        all.filter((value) => value.startsWith(prefix)).sort(),
      );
    }
    expect(set.has('news-398')).toBe(true);
    expect(set.has('news-397')).toBe(false);
  });
});
