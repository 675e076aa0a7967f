import { PassThrough, Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PromptCancelled, type PromptInput, readNewPassword } from './password-prompt.js';

/** A fake terminal: raw-mode calls recorded, keys typed one chunk at a time. */
function terminal(keys: string[]) {
  const input = new PassThrough() as PassThrough & PromptInput;
  const raw: boolean[] = [];
  input.isTTY = true;
  input.setRawMode = (on: boolean) => raw.push(on);
  let written = '';
  const output = new Writable({
    write(chunk, _encoding, done) {
      written += String(chunk);
      done();
    },
  });
  // Each key arrives once the prompt is listening, as a person types after seeing it.
  const type = async () => {
    for (const key of keys) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      input.write(key);
    }
  };
  return { input, output, raw, written: () => written, type };
}

describe('readNewPassword', () => {
  it('asks twice on a terminal with echo off, and never writes what is typed', async () => {
    const tty = terminal(['secret pass', 'x\u007f', 'word\r', 'secret password\r']);
    const [password] = await Promise.all([readNewPassword(tty.input, tty.output, 'ada'), tty.type()]);
    expect(password).toBe('secret password');
    expect(tty.raw).toEqual([true, false, true, false]);
    expect(tty.written()).toBe('Password for ada: \nAgain: \n');
  });

  it('refuses two different passwords and a Ctrl+C', async () => {
    const differ = terminal(['one password\r', 'another one\r']);
    await expect(Promise.all([readNewPassword(differ.input, differ.output, 'ada'), differ.type()])).rejects.toThrow(
      /differ/,
    );
    const cancel = terminal(['abc\u0003']);
    await expect(Promise.all([readNewPassword(cancel.input, cancel.output, 'ada'), cancel.type()])).rejects.toThrow(
      PromptCancelled,
    );
    expect(cancel.raw.at(-1)).toBe(false); // the terminal is given back
  });

  it('keeps what is typed or pasted ahead for the next prompt', async () => {
    const pasted = terminal(['secret password\rsecret password\r']);
    const [password] = await Promise.all([readNewPassword(pasted.input, pasted.output, 'ada'), pasted.type()]);
    expect(password).toBe('secret password');
    expect(pasted.raw).toEqual([true, false, true, false]);
    expect(pasted.written()).toBe('Password for ada: \nAgain: \n');

    // A paste with `\r\n` line ends, split across chunks in the middle of the second line.
    const crlf = terminal(['first one\r\nfirst', ' one\r\n']);
    const [again] = await Promise.all([readNewPassword(crlf.input, crlf.output, 'ada'), crlf.type()]);
    expect(again).toBe('first one');

    const differ = terminal(['one password\ranother one\r']);
    await expect(Promise.all([readNewPassword(differ.input, differ.output, 'ada'), differ.type()])).rejects.toThrow(
      /differ/,
    );
  });

  it('takes the first line of a pipe', async () => {
    expect(await readNewPassword(Readable.from(['from a script\nignored\n']), new PassThrough(), 'ada')).toBe(
      'from a script',
    );
    await expect(readNewPassword(Readable.from([]), new PassThrough(), 'ada')).rejects.toThrow(PromptCancelled);
  });
});
