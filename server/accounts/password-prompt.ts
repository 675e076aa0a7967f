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

/** One line typed on a terminal with echo off. */
function hiddenLine(input: PromptInput, output: NodeJS.WritableStream, question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    output.write(question);
    let typed = '';
    input.setRawMode?.(true);
    input.resume();
    const finish = (error: Error | null) => {
      input.removeListener('data', onData);
      input.setRawMode?.(false);
      input.pause();
      output.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of String(chunk)) {
        if (char === '\r' || char === '\n') return finish(null);
        if (char === '\u0003' || char === '\u0004') return finish(new PromptCancelled('cancelled'));
        if (char === '\u007f' || char === '\b') typed = [...typed].slice(0, -1).join('');
        else if (char >= ' ') typed += char;
      }
    };
    input.on('data', onData);
  });
}

/** Reads a new password: typed twice on a terminal (they must match), or a pipe's first line. */
export async function readNewPassword(
  input: PromptInput,
  output: NodeJS.WritableStream,
  whose: string,
): Promise<string> {
  if (!input.isTTY) return firstLine(input);
  const password = await hiddenLine(input, output, `Password for ${whose}: `);
  const again = await hiddenLine(input, output, 'Again: ');
  if (password !== again) throw new PromptCancelled('the two passwords differ');
  return password;
}
