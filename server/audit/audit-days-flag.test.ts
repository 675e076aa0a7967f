import { describe, expect, it } from 'vitest';
import { commandHelp } from '../cli/command-help.js';
import { quireCommands } from '../cli/command-list.js';
import { parseServeArgs, SERVE_OPTIONS, UsageError } from '../cli-commands.js';

describe('quire serve --audit-days', () => {
  it('keeps a year of audit events by default', () => {
    expect(parseServeArgs([], {})).toMatchObject({ auditDays: 365 });
  });

  it('takes a whole number from the flag, else from QUIRE_AUDIT_DAYS', () => {
    expect(parseServeArgs(['--audit-days', '90'], {})).toMatchObject({ auditDays: 90 });
    expect(parseServeArgs([], { QUIRE_AUDIT_DAYS: '730' })).toMatchObject({ auditDays: 730 });
    expect(parseServeArgs(['--audit-days', '30'], { QUIRE_AUDIT_DAYS: '730' })).toMatchObject({ auditDays: 30 });
  });

  it.each(['0', '-1', '1.5', 'forever'])('refuses --audit-days=%s in one line', (value) => {
    expect(() => parseServeArgs([`--audit-days=${value}`], {})).toThrow(UsageError);
    expect(() => parseServeArgs([`--audit-days=${value}`], {})).toThrow(
      '--audit-days must be a whole number, at least 1',
    );
  });

  it('is in quire help serve with its default', () => {
    const serve = quireCommands(SERVE_OPTIONS).find((command) => command.name === 'serve');
    expect(commandHelp(serve!)).toMatch(
      /^ {2}--audit-days N +Days a security event .*\n {20,}default: QUIRE_AUDIT_DAYS, else 365$/m,
    );
  });
});
