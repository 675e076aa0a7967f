import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Token, Tokens } from 'marked';
import { allTokens } from './docs-markdown.js';

const run = promisify(execFile);

/** The comment that keeps a block from running, with the reason (`<!-- no-run: reason -->`). */
const NO_RUN = /^<!--\s*no-run\b:?\s*(.*?)\s*-->\s*$/s;
/** The status a command claims: `# -> 201 ...`. */
const EXPECTED = /^#\s*->\s*(\d{3})\b/;
/** A `curl` at the start of a command, after a pipe, `;`, `&&`, `(` or `$(`. */
const CURL_CALL = /(?:^|[|;&(])\s*curl\s/g;

/** One shell command of an example (continuation lines joined) and the status it claims. */
export interface DocCommand {
  /** The command's first line, to name it in a failure. */
  firstLine: string;
  /** How many times it calls curl (a pipe may call it twice). */
  curls: number;
  /** The status written after it (`# -> 201`), or null. */
  expected: number | null;
}

/** One ```sh block that calls curl. */
export interface DocCurlBlock {
  code: string;
  /** Why it does not run (`<!-- no-run: ... -->` before it), `''` when the marker gives none, or null. */
  noRun: string | null;
  commands: DocCommand[];
}

/** How many `<!-- no-run: ... -->` markers a page holds (as HTML comments, not quoted in code). */
export function noRunMarkers(tokens: Token[]): number {
  return allTokens(tokens).filter((token) => token.type === 'html' && NO_RUN.test((token as Tokens.HTML).text.trim()))
    .length;
}

/** The ```sh blocks of a page that call curl, in the page's order, each with its commands. */
export function curlBlocks(tokens: Token[]): DocCurlBlock[] {
  const blocks: DocCurlBlock[] = [];
  let pendingNoRun: string | null = null;
  for (const token of allTokens(tokens)) {
    if (token.type === 'html') {
      const marker = NO_RUN.exec((token as Tokens.HTML).text.trim());
      if (marker) pendingNoRun = marker[1];
      continue;
    }
    if (token.type === 'paragraph' || token.type === 'heading') pendingNoRun = null;
    if (token.type !== 'code') continue;
    const code = token as Tokens.Code;
    const noRun = pendingNoRun;
    pendingNoRun = null;
    if (!['sh', 'bash', 'shell'].includes(code.lang ?? '')) continue;
    const commands = shellCommands(code.text);
    if (!commands.some((command) => command.curls > 0)) continue;
    blocks.push({ code: code.text, noRun, commands });
  }
  return blocks;
}

/**
 * A shell script's commands: lines joined at a trailing `\` and inside quotes, comments split
 * off. A `# -> NNN` comment on a command's line, or on the comment lines right after it, is the
 * status that command claims.
 */
export function shellCommands(script: string): DocCommand[] {
  const commands: DocCommand[] = [];
  let text = '';
  let quote: '"' | "'" | null = null;
  const claim = (comment: string) => {
    const match = EXPECTED.exec(comment.trim());
    const last = commands.at(-1);
    if (match && last && last.expected === null) last.expected = Number(match[1]);
  };
  const end = () => {
    if (text.trim() === '') return;
    commands.push({
      firstLine: text.trim().split('\n')[0],
      curls: text.match(CURL_CALL)?.length ?? 0,
      expected: null,
    });
    text = '';
  };
  for (let i = 0; i < script.length; i++) {
    const ch = script[i];
    if (quote) {
      if (ch === '\\' && quote === '"') {
        text += ch + (script[i + 1] ?? '');
        i++;
        continue;
      }
      if (ch === quote) quote = null;
      text += ch;
      continue;
    }
    if (ch === '\\' && script[i + 1] === '\n') {
      text += ' ';
      i++;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      text += ch;
      continue;
    }
    if (ch === '#' && (text === '' || /\s/.test(text.at(-1) ?? ''))) {
      const stop = script.indexOf('\n', i);
      const comment = script.slice(i, stop === -1 ? script.length : stop);
      end();
      claim(comment);
      i = (stop === -1 ? script.length : stop) - 1;
      continue;
    }
    if (ch === '\n') {
      end();
      continue;
    }
    text += ch;
  }
  end();
  return commands;
}

/** What a page's examples run with: the server's API and origin, and the variables they use. */
export interface ExampleEnvironment {
  /** The API's base, `http://127.0.0.1:PORT/api` (the examples' `$B`). */
  api: string;
  /** `127.0.0.1:PORT`, which replaces `127.0.0.1:4780` in the examples. */
  hostPort: string;
  /** More variables the page's examples use (`ADMIN_TOKEN`...). */
  variables?: Record<string, string>;
  /** Files the examples read from their folder (`photo.jpg`). */
  files?: Record<string, Buffer>;
}

/**
 * curl, counted: each call appends the status of its last answer to $QUIRE_DOC_STATUSES (000 when
 * there was none), reading it from the headers it also saves, so the example's own output and
 * options are untouched.
 */
const PRELUDE = `set -eo pipefail
curl() {
  local headers code rc=0
  headers=$(mktemp)
  command curl -sS -D "$headers" "$@" || rc=$?
  code=$(grep -a '^HTTP/' "$headers" | tail -n 1 | cut -d' ' -f2)
  rm -f "$headers"
  echo "\${code:-000}" >> "$QUIRE_DOC_STATUSES"
  return $rc
}
`;

/**
 * Runs a page's runnable blocks, in order, in one bash (so a variable one block sets is there
 * for the next), with real curl against the server, and says what is wrong: a curl without a
 * claimed status, a no-run marker without a reason, or a status other than the one claimed.
 * The commands of a pipe before its last curl must answer 2xx.
 */
export async function examplesProblems(
  page: string,
  blocks: DocCurlBlock[],
  env: ExampleEnvironment,
): Promise<string[]> {
  const problems: string[] = [];
  const expected: { status: number | '2xx'; command: string }[] = [];
  const scripts: string[] = [];
  for (const block of blocks) {
    if (block.noRun !== null) {
      if (block.noRun === '') problems.push(`${page}: a no-run block gives no reason: ${block.commands[0]?.firstLine}`);
      continue;
    }
    for (const command of block.commands) {
      if (command.curls === 0) continue;
      if (command.expected === null) {
        problems.push(`${page}: no "# -> STATUS" after: ${command.firstLine}`);
        continue;
      }
      for (let n = 1; n < command.curls; n++) expected.push({ status: '2xx', command: command.firstLine });
      expected.push({ status: command.expected, command: command.firstLine });
    }
    scripts.push(block.code.split('127.0.0.1:4780').join(env.hostPort));
  }
  if (problems.length > 0 || scripts.length === 0) return problems;

  const dir = mkdtempSync(join(tmpdir(), 'quire-doc-examples-'));
  try {
    for (const [name, bytes] of Object.entries(env.files ?? {})) writeFileSync(join(dir, name), bytes);
    const statusFile = join(dir, '.statuses');
    writeFileSync(statusFile, '');
    writeFileSync(join(dir, '.examples.sh'), `${PRELUDE}\n${scripts.join('\n')}\n`);
    let output = '';
    try {
      await run('bash', ['.examples.sh'], {
        cwd: dir,
        timeout: 60_000,
        env: { ...process.env, ...env.variables, B: env.api, QUIRE_DOC_STATUSES: statusFile },
      });
    } catch (error) {
      const failed = error as { code?: number; stderr?: string };
      output = `bash stopped (exit ${failed.code}): ${failed.stderr?.trim().slice(-400)}`;
    }
    const got = readFileSync(statusFile, 'utf8').split('\n').filter(Boolean);
    expected.forEach((want, index) => {
      const status = got[index];
      const ok =
        status !== undefined && (want.status === '2xx' ? /^2\d\d$/.test(status) : status === String(want.status));
      if (!ok) problems.push(`${page}: ${want.command}: expected ${want.status}, got ${status ?? 'no answer'}`);
    });
    if (got.length > expected.length)
      problems.push(`${page}: ${got.length - expected.length} curl calls more than the page claims`);
    if (output && problems.length === 0) problems.push(`${page}: ${output}`);
    else if (output) problems.push(output);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return problems;
}
