import { type ParseArgsConfig, parseArgs } from 'node:util';
import { closestMatch } from 'leven';

/** The options a command hands to `node:util` parseArgs. */
export type CommandOptions = NonNullable<ParseArgsConfig['options']>;

/** What help says of one flag. */
export interface FlagHelp {
  /** The value's name (`FILE`, `N`); none for a switch. */
  value?: string;
  /** What it does, one line. */
  text: string;
  /** What applies when it is not given (its variable included), shown as `default: ...`. */
  default?: string;
}

/** One `quire` command: its help page, and the options its parser takes. */
export interface CommandEntry {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Its forms, each after `quire ` (`types [--out FILE]`). */
  usage: string[];
  /** The options its own parseArgs accepts: the flags looked for mistakes before it runs. */
  options: CommandOptions;
  /** Help for each of `options`, by the same names. */
  flags: Record<string, FlagHelp>;
  examples: string[];
  /** A paragraph said after the usage (environment variables, where output goes). */
  notes?: string;
}

/** The flags that ask for a command's help instead of running it. */
const HELP_OPTIONS = { help: { type: 'boolean', short: 'h' } } as const;

const INDENT = '  ';

/** Help's lines are wrapped to this width, which reads in any terminal. */
const LINE_WIDTH = 100;

/** `text` in lines of at most `width` characters, broken between words (a longer word stays whole). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  return [...lines, line];
}

/**
 * Lines of `[left, right]` pairs, the right column aligned and wrapped within LINE_WIDTH; a right
 * side given as several paragraphs starts each on a line of its own.
 */
function columns(rows: [string, string | string[]][]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  const room = Math.max(LINE_WIDTH - INDENT.length - width, 30);
  return rows.flatMap(([left, right]) =>
    [right]
      .flat()
      .flatMap((paragraph) => wrap(paragraph, room))
      .map((part, index) => `${INDENT}${(index === 0 ? left : '').padEnd(width)}${part}`.trimEnd()),
  );
}

/** `--name VALUE` as help shows a flag. */
function flagLabel(name: string, options: CommandOptions, help: FlagHelp | undefined): string {
  const option = options[name];
  const short = option?.short ? `-${option.short}, ` : '';
  const value = option?.type === 'string' ? ` ${help?.value ?? 'VALUE'}` : '';
  return `${short}--${name}${value}${option?.multiple ? ' (repeatable)' : ''}`;
}

/** The overview `quire help` and `quire --help` print: one command a line. */
export function overviewHelp(commands: readonly CommandEntry[], version: string): string {
  return [
    `Quire ${version}: a local content server with a desktop editor.`,
    '',
    'Usage: quire <command> [options]',
    '',
    'Commands:',
    ...columns(commands.map((command) => [command.name, command.summary])),
    '',
    'quire alone (or with options only) runs quire serve.',
    'Run quire help <command> (or quire <command> --help) for its options, their defaults and examples;',
    'quire --version prints the version.',
  ].join('\n');
}

/** One command's help: its forms, every flag with its default, and examples. */
export function commandHelp(command: CommandEntry): string {
  const flagRows: [string, string[]][] = Object.keys(command.options).map((name) => {
    const help = command.flags[name];
    const text = help?.text ?? '';
    return [flagLabel(name, command.options, help), help?.default ? [text, `default: ${help.default}`] : [text]];
  });
  flagRows.push(['-h, --help', ['Show this help']]);
  return [
    `quire ${command.name}: ${command.summary}`,
    '',
    'Usage:',
    ...command.usage.map((form) => `${INDENT}quire ${form}`),
    ...(command.notes ? ['', ...wrap(command.notes, LINE_WIDTH)] : []),
    '',
    'Options:',
    ...columns(flagRows),
    '',
    'Examples:',
    ...command.examples.map((example) => `${INDENT}${example}`),
  ].join('\n');
}

/** The candidate nearest `word` by edit distance, when near enough to be a typo of it. */
export function closestName(word: string, candidates: readonly string[]): string | undefined {
  // A third of the word (at least 2) catches a slip or a swap without naming unrelated words.
  return closestMatch(word, candidates, { maxDistance: Math.max(2, Math.floor(word.length / 3)) });
}

/** ` (did you mean X?)` when a candidate is near `word`, else ''. */
export function didYouMean(word: string, candidates: readonly string[], prefix = ''): string {
  const near = closestName(word, candidates);
  return near === undefined ? '' : `; did you mean ${prefix}${near}?`;
}

/** What a command's arguments ask before it runs: its help, a flag it does not know, or neither. */
export type FlagCheck = { kind: 'help' } | { kind: 'unknown'; message: string } | { kind: 'ok' };

/**
 * Looks through `args` with the command's own options (values taken as its parser takes them): a
 * `--help`/`-h`, or the first flag it does not know, named with the closest known one.
 */
export function checkFlags(command: CommandEntry, args: string[]): FlagCheck {
  const { tokens } = parseArgs({
    args,
    options: { ...command.options, ...HELP_OPTIONS },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  if (tokens.some((token) => token.kind === 'option' && token.name === 'help')) return { kind: 'help' };
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name in command.options) continue;
    const known = Object.keys(command.options);
    const suggestion = token.rawName.startsWith('--') ? didYouMean(token.name, known, '--') : '';
    return {
      kind: 'unknown',
      message: `unknown option ${token.rawName}${suggestion} (quire help ${command.name} lists its options)`,
    };
  }
  return { kind: 'ok' };
}
