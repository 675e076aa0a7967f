import { Writable } from 'node:stream';

/** A stream a command writes to, keeping all it wrote in `text`; `isTTY` for a command that asks. */
export type CapturedOutput = Writable & { text: string; isTTY?: boolean };

/** A new, empty CapturedOutput: what a test passes as a command's `out` or `err`. */
export function captureOutput(): CapturedOutput {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      stream.text += String(chunk);
      done();
    },
  }) as CapturedOutput;
  stream.text = '';
  return stream;
}
