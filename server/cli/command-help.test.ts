import { describe, expect, it } from 'vitest';
import { SERVE_OPTIONS } from '../config/quire-config.js';
import { type CommandEntry, checkFlags, closestName, commandHelp, overviewHelp } from './command-help.js';
import { quireCommands } from './command-list.js';

const commands = quireCommands(SERVE_OPTIONS);
const named = (name: string): CommandEntry => {
  const entry = commands.find((command) => command.name === name);
  if (!entry) throw new Error(`no command ${name}`);
  return entry;
};

describe('quire help', () => {
  it('lists one command a line with its one-line summary', () => {
    const lines = overviewHelp(commands, '1.2.3').split('\n');
    expect(lines[0]).toContain('1.2.3');
    for (const command of commands) {
      const line = lines.find((candidate) => candidate.trim().startsWith(`${command.name} `));
      expect(line, command.name).toMatch(new RegExp(`^  ${command.name} +${command.summary.slice(0, 20)}`));
    }
    expect(lines.every((line) => line.length <= 110)).toBe(true);
  });

  it("gives every option each command's parser takes a line of help, and every command an example", () => {
    for (const command of commands) {
      const page = commandHelp(command);
      for (const name of Object.keys(command.options)) {
        expect(command.flags[name]?.text, `${command.name} --${name}`).toMatch(/\w/);
        expect(page, `${command.name} --${name}`).toMatch(new RegExp(`^  (-\\w, )?--${name}\\b.*\\w`, 'm'));
      }
      if (command.name !== 'help') expect(command.examples.length, command.name).toBeGreaterThan(0);
      for (const example of command.examples) expect(page).toContain(`  ${example}`);
    }
  });

  it('says each default under its flag', () => {
    const page = commandHelp(named('serve'));
    expect(page).toMatch(/^ {2}--port N +Port to listen on .*\n {20,}default: QUIRE_PORT, else 4780$/m);
    expect(page).toMatch(/^ {2}--db FILE +.*\n {20,}default: QUIRE_DB, else .*content\.sqlite$/m);
    expect(commandHelp(named('types'))).toMatch(/^ {2}--out FILE +.*\n {2,}default: standard output$/m);
  });

  it('wraps its lines to fit a terminal', () => {
    for (const command of commands) {
      for (const line of commandHelp(command).split('\n')) {
        // A path in a default may be longer; nothing else is.
        if (!line.includes('/')) expect(line.length, line).toBeLessThanOrEqual(100);
      }
    }
  });
});

describe('a mistyped name', () => {
  it('is matched to the closest command or flag, and nothing unrelated is suggested', () => {
    const names = commands.map((command) => command.name);
    expect(closestName('tpyes', names)).toBe('types');
    expect(closestName('exprot', names)).toBe('export');
    expect(closestName('serv', names)).toBe('serve');
    expect(closestName('deploy', names)).toBeUndefined();
  });

  it('finds the first flag a command does not take, its values read as its parser reads them', () => {
    expect(checkFlags(named('serve'), ['--port', '0', '--prot', '1'])).toEqual({
      kind: 'unknown',
      message: 'unknown option --prot; did you mean --port? (quire help serve lists its options)',
    });
    // A value that looks like a flag is still the value of --editor.
    expect(checkFlags(named('serve'), ['--editor', '--ann'])).toEqual({ kind: 'ok' });
    expect(checkFlags(named('types'), ['--out=x.d.ts', '--db', 'x.sqlite'])).toEqual({ kind: 'ok' });
    expect(checkFlags(named('types'), ['--zzzzzz'])).toEqual({
      kind: 'unknown',
      message: 'unknown option --zzzzzz (quire help types lists its options)',
    });
  });

  it('--help or -h anywhere asks for the help page', () => {
    expect(checkFlags(named('import'), ['--type', 'news', '--help'])).toEqual({ kind: 'help' });
    expect(checkFlags(named('copy'), ['-h'])).toEqual({ kind: 'help' });
  });
});
