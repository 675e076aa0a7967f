import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { exportCommand } from '../export/export-command.js';
import { mediaCommand } from '../media/media-prune-command.js';
import { progressBar, progressLine } from './progress-line.js';

/** A stream that keeps what is written, a terminal or not as `isTTY` says. */
function fakeStream(isTTY: boolean): Writable & { isTTY: boolean; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  return Object.assign(stream, { isTTY, text: () => chunks.join('') });
}

describe('progressLine', () => {
  it('redraws one line in place on a terminal and clears it when done', () => {
    const stream = fakeStream(true);
    const line = progressLine(stream);
    line.update('Copying rows: 1/3');
    line.update('Copying rows: 1/3');
    line.update('Copying rows: 3/3');
    line.done();
    expect(stream.text()).toBe('\rCopying rows: 1/3\u001b[K\rCopying rows: 3/3\u001b[K\r\u001b[K');
  });

  it('writes nothing at all where the stream is not a terminal (a pipe, a file)', () => {
    const stream = fakeStream(false);
    const line = progressLine(stream);
    line.update('Copying rows: 1/3');
    line.done();
    expect(stream.text()).toBe('');
  });

  it('clears nothing when nothing was shown, and only once', () => {
    const stream = fakeStream(true);
    const line = progressLine(stream);
    line.done();
    line.update('Working');
    line.done();
    line.done();
    expect(stream.text()).toBe('\rWorking\u001b[K\r\u001b[K');
  });
});

describe('progressBar', () => {
  it('fills its width by the share done and counts with separators', () => {
    expect(progressBar('Importing news', 5_000, 10_000, 'rows', 10)).toBe(
      'Importing news [#####-----] 50% 5,000/10,000 rows',
    );
    expect(progressBar('Importing news', 0, 0, 'rows', 4)).toBe('Importing news [####] 100% 0/0 rows');
  });
});

describe('the long commands on a terminal and in a pipe', () => {
  let dir: string;
  let dbFile: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-progress-'));
    dbFile = join(dir, 'content.sqlite');
    await (await openDatabase(dbFile)).close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('quire media prune shows what it does on a terminal, clears it, and ends with its summary', async () => {
    const [terminal, pipe] = [fakeStream(true), fakeStream(false)];
    const out = fakeStream(false);
    expect(await mediaCommand(['prune', '--db', dbFile], { out, err: terminal })).toBe(0);
    expect(terminal.text()).toBe('\rLooking for media no row uses...\u001b[K\r\u001b[K');
    expect(await mediaCommand(['prune', '--db', dbFile], { out, err: pipe })).toBe(0);
    expect(pipe.text()).toBe('');
    expect(out.text()).toMatch(/^No unused media[^\n]*\n(No unused media[^\n]*\n)$/);
  });

  it('quire export redraws its progress on a terminal and leaves the line clean for its summary', async () => {
    const terminal = fakeStream(true);
    const out = fakeStream(false);
    expect(await exportCommand(['--out', join(dir, 'site'), '--db', dbFile], { out, err: terminal })).toBe(0);
    // Each redraw: carriage return, the line, erase to its end; last, the line erased.
    const [before, first, ...rest] = terminal.text().split('\r');
    expect(before).toBe('');
    expect(first).toMatch(/^Exporting \w+/);
    expect(rest.pop()).toBe('\u001b[K');
    for (const line of [first, ...rest]) expect(line.endsWith('\u001b[K')).toBe(true);
    expect(out.text()).toMatch(/^Exported \d+ content types, [^\n]+\n$/);
  });
});
