/**
 * Reads a password for the CLI: on a terminal, asked twice with echo off (never on the command
 * line, where it would land in the shell's history and in `ps`); from a pipe, its first line, so
 * scripts and tests can give it (`printf '%s\n' "$PASSWORD" | quire user add ...`).
 */

/** A terminal or a pipe to read from. */
export interface PromptInput extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?: (raw: boolean) => unknown;
}

/** Thrown when the person gives up (Ctrl+C, Ctrl+D) or the pipe is empty. */
export class PromptCancelled extends Error {}

/** The first line of a pipe. */
async function firstLine(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += String(chunk);
    const end = text.search(/\r?\n/);
    if (end >= 0) return text.slice(0, end);
  }
  if (text === '') throw new PromptCancelled('no password was given on standard input');
  return text;
}

/**
 * Lines typed on a terminal with echo off. What arrives after a line's end (typed or pasted ahead,
 * as in `password⏎password⏎` in one chunk) is kept for the next line rather than dropped.
 */
function hiddenLines(input: PromptInput, output: NodeJS.WritableStream) {
  let ahead = '';
  // A line ended by `\r` may be followed by the `\n` of a pasted `\r\n`, which belongs to it.
  let afterReturn = false;
  return (question: string): Promise<string> =>
    new Promise((resolve, reject) => {
      output.write(question);
      let typed = '';
      input.setRawMode?.(true);
      const finish = (error: Error | null) => {
        input.removeListener('data', onData);
        input.setRawMode?.(false);
        input.pause();
        output.write('\n');
        if (error) reject(error);
        else resolve(typed);
      };
      /** Reads characters until a line ends; true when it did, keeping the rest for the next line. */
      const take = (text: string): boolean => {
        const chars = [...text];
        for (let at = 0; at < chars.length; at++) {
          const char = chars[at];
          const skipped = afterReturn && char === '\n';
          afterReturn = false;
          if (skipped) continue;
          if (char === '\r' || char === '\n') {
            afterReturn = char === '\r';
            ahead = chars.slice(at + 1).join('');
            finish(null);
            return true;
          }
          if (char === '\u0003' || char === '\u0004') {
            ahead = '';
            finish(new PromptCancelled('cancelled'));
            return true;
          }
          if (char === '\u007f' || char === '\b') typed = [...typed].slice(0, -1).join('');
          else if (char >= ' ') typed += char;
        }
        return false;
      };
      const onData = (chunk: Buffer | string) => {
        take(String(chunk));
      };
      const pending = ahead;
      ahead = '';
      input.on('data', onData);
      if (take(pending)) return;
      input.resume();
    });
}

/** Reads a new password: typed twice on a terminal (they must match), or a pipe's first line. */
export async function readNewPassword(
  input: PromptInput,
  output: NodeJS.WritableStream,
  whose: string,
): Promise<string> {
  if (!input.isTTY) return firstLine(input);
  const line = hiddenLines(input, output);
  const password = await line(`Password for ${whose}: `);
  const again = await line('Again: ');
  if (password !== again) throw new PromptCancelled('the two passwords differ');
  return password;
}
