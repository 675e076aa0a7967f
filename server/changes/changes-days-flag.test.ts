import { describe, expect, it } from 'vitest';
import { commandHelp } from '../cli/command-help.js';
import { quireCommands } from '../cli/command-list.js';
import { readQuireConfig, SERVE_OPTIONS, UsageError } from '../config/quire-config.js';

describe('quire serve --changes-days', () => {
  it('keeps 30 days of the change feed by default', () => {
    expect(readQuireConfig([], {})).toMatchObject({ changesDays: 30 });
  });

  it('takes a whole number from the flag, else from QUIRE_CHANGES_DAYS', () => {
    expect(readQuireConfig(['--changes-days', '7'], {})).toMatchObject({ changesDays: 7 });
    expect(readQuireConfig([], { QUIRE_CHANGES_DAYS: '90' })).toMatchObject({ changesDays: 90 });
    expect(readQuireConfig(['--changes-days', '7'], { QUIRE_CHANGES_DAYS: '90' })).toMatchObject({ changesDays: 7 });
  });

  it.each(['0', '-1', '1.5', 'forever'])('refuses --changes-days=%s in one line', (value) => {
    expect(() => readQuireConfig([`--changes-days=${value}`], {})).toThrow(UsageError);
    expect(() => readQuireConfig([`--changes-days=${value}`], {})).toThrow(
      '--changes-days must be a whole number, at least 1',
    );
  });

  it('is in quire help serve with its default', () => {
    const serve = quireCommands(SERVE_OPTIONS).find((command) => command.name === 'serve');
    expect(commandHelp(serve!)).toMatch(
      /^ {2}--changes-days N +Days a change stays in the change feed .*\n {20,}default: QUIRE_CHANGES_DAYS, else 30$/m,
    );
  });
});
