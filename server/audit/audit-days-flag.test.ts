import { describe, expect, it } from 'vitest';
import { commandHelp } from '../cli/command-help.js';
import { quireCommands } from '../cli/command-list.js';
import { readQuireConfig, SERVE_OPTIONS, UsageError } from '../config/quire-config.js';

describe('quire serve --audit-days', () => {
  it('keeps a year of audit events by default', () => {
    expect(readQuireConfig([], {})).toMatchObject({ auditDays: 365 });
  });

  it('takes a whole number from the flag, else from QUIRE_AUDIT_DAYS', () => {
    expect(readQuireConfig(['--audit-days', '90'], {})).toMatchObject({ auditDays: 90 });
    expect(readQuireConfig([], { QUIRE_AUDIT_DAYS: '730' })).toMatchObject({ auditDays: 730 });
    expect(readQuireConfig(['--audit-days', '30'], { QUIRE_AUDIT_DAYS: '730' })).toMatchObject({ auditDays: 30 });
  });

  it.each(['0', '-1', '1.5', 'forever'])('refuses --audit-days=%s in one line', (value) => {
    expect(() => readQuireConfig([`--audit-days=${value}`], {})).toThrow(UsageError);
    expect(() => readQuireConfig([`--audit-days=${value}`], {})).toThrow(
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
