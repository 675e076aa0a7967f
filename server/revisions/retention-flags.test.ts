import { describe, expect, it } from 'vitest';
import { readQuireConfig, UsageError } from '../config/quire-config.js';

describe('quire serve --keep-revisions and --trash-days', () => {
  it('keep every revision and 30 days of trash by default', () => {
    expect(readQuireConfig([], {})).toMatchObject({ keepRevisions: null, trashDays: 30 });
  });

  it('take whole numbers from the flags, else from QUIRE_KEEP_REVISIONS and QUIRE_TRASH_DAYS', () => {
    expect(readQuireConfig(['--keep-revisions', '50', '--trash-days', '7'], {})).toMatchObject({
      keepRevisions: 50,
      trashDays: 7,
    });
    const env = { QUIRE_KEEP_REVISIONS: '5', QUIRE_TRASH_DAYS: '90' };
    expect(readQuireConfig([], env)).toMatchObject({ keepRevisions: 5, trashDays: 90 });
    expect(readQuireConfig(['--trash-days', '1'], env)).toMatchObject({ keepRevisions: 5, trashDays: 1 });
  });

  it.each([
    ['--keep-revisions', '0'],
    ['--keep-revisions', 'all'],
    ['--trash-days', '-1'],
    ['--trash-days', '1.5'],
  ])('refuse %s %s in one line', (flag, value) => {
    // `--flag=value`, so a negative number reaches the check instead of reading as another flag.
    const args = [`${flag}=${value}`];
    expect(() => readQuireConfig(args, {})).toThrow(UsageError);
    expect(() => readQuireConfig(args, {})).toThrow(`${flag} must be a whole number, at least 1`);
  });
});
