import { describe, expect, it } from 'vitest';
import type { TypeChange } from '../../../common/revision-contract.js';
import { describeTypeChange } from './type-change-log.js';

const change = (detail: TypeChange['detail']): TypeChange => ({
  id: 1,
  type: 'settings',
  action: 'update',
  detail,
  by: 'ada',
  at: '2026-05-04 09:00:00.000000',
});

describe('the type change log names a change of kind', () => {
  it('to single and back to collection, beside the other changes', () => {
    expect(describeTypeChange(change({ type: { from: 'collection', to: 'single' } }))).toBe(
      'settings: made it a single type (one row)',
    );
    expect(describeTypeChange(change({ type: { from: 'single', to: 'collection' }, added: ['tagline'] }))).toBe(
      'settings: added tagline; made it a collection',
    );
  });

  it('of columns made shared, naming the translations it deleted', () => {
    const detail = {
      changed: ['remark'],
      dropped_values: [
        { column: 'remark', locale: 'fr', count: 1 },
        { column: 'remark', locale: 'de', count: 12 },
      ],
    };
    expect(describeTypeChange(change(detail))).toBe(
      'settings: changed remark; deleted the translations of remark in fr (1), remark in de (12)',
    );
  });
});
