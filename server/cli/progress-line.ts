/** Where a command's progress goes: its standard error, a terminal or not. */
export interface ProgressStream extends NodeJS.WritableStream {
  isTTY?: boolean;
}

/** One status line a long command redraws in place. */
export interface ProgressLine {
  /** Shows `text` in place of the line shown before. */
  update(text: string): void;
  /** Clears the line, before the command's summary or its error. */
  done(): void;
}

/**
 * A status line on `stream` when it is a terminal, and nothing at all otherwise: in a pipe or a
 * log file a redrawn line is only noise, and the summary line says what was done.
 */
export function progressLine(stream: ProgressStream): ProgressLine {
  const terminal = stream.isTTY === true;
  let shown = '';
  return {
    update(text) {
      if (!terminal || text === shown) return;
      shown = text;
      stream.write(`\r${text}\u001b[K`);
    },
    done() {
      if (shown === '') return;
      shown = '';
      stream.write('\r\u001b[K');
    },
  };
}

/** `label [#####-----] 50% 5,000/10,000 unit`, a bar `width` characters wide. */
export function progressBar(label: string, done: number, total: number, unit: string, width = 30): string {
  const share = total === 0 ? 1 : Math.min(done / total, 1);
  const filled = Math.round(share * width);
  const count = (n: number) => n.toLocaleString('en-US');
  return `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.floor(share * 100)}% ${count(done)}/${count(total)} ${unit}`;
}
