import { describe, expect, it } from 'vitest';
import { formatOf, ImportFormatError, readRecords } from './import-formats.js';

describe('reading import files', () => {
  it('knows the format from the file name', () => {
    expect(formatOf('rows.CSV')).toBe('csv');
    expect(formatOf('rows.json')).toBe('json');
    expect(formatOf('rows.ndjson')).toBe('json');
    expect(formatOf('rows.jsonl')).toBe('json');
    expect(formatOf('rows.txt')).toBeNull();
  });

  it('reads a JSON array and names each row by the line it starts on', () => {
    const text =
      '[\n  {"title": "One"},\n  {\n    "title": "Two, with \\"quotes\\" and ] [ {"\n  },\n  {"title": "Three\\nlines"}\n]\n';
    expect(readRecords(text, 'json')).toEqual([
      { line: 2, fields: { title: 'One' } },
      { line: 3, fields: { title: 'Two, with "quotes" and ] [ {' } },
      { line: 6, fields: { title: 'Three\nlines' } },
    ]);
    expect(readRecords('[]', 'json')).toEqual([]);
    expect(readRecords('\uFEFF[{"a":1}]', 'json')).toEqual([{ line: 1, fields: { a: 1 } }]);
  });

  it('reads NDJSON, skipping blank lines', () => {
    expect(readRecords('{"title":"One"}\n\n{"title":"Two"}\r\n', 'json')).toEqual([
      { line: 1, fields: { title: 'One' } },
      { line: 3, fields: { title: 'Two' } },
    ]);
  });

  it('reads CSV with a header row, quoted commas, doubled quotes and line breaks inside quotes', () => {
    const text =
      'title,status\r\n"Hello, world",draft\r\n"She said ""hi""",published\n"Two\nlines",archived\n\nplain,draft';
    expect(readRecords(text, 'csv')).toEqual([
      { line: 2, fields: { title: 'Hello, world', status: 'draft' } },
      { line: 3, fields: { title: 'She said "hi"', status: 'published' } },
      { line: 4, fields: { title: 'Two\nlines', status: 'archived' } },
      { line: 7, fields: { title: 'plain', status: 'draft' } },
    ]);
    expect(readRecords('title,meta_title\nx,\n', 'csv')).toEqual([{ line: 2, fields: { title: 'x', meta_title: '' } }]);
  });

  it('counts a CRLF inside a quoted field as one line, so later rows keep their line numbers', () => {
    const text = 'title,status\r\n"Two\r\nlines",draft\r\nnext,published\r\n"open\r\n';
    let caught: unknown;
    try {
      readRecords(text, 'csv');
    } catch (error) {
      caught = error;
    }
    expect((caught as ImportFormatError).line).toBe(5);
    expect(readRecords(text.slice(0, text.lastIndexOf('"open')), 'csv')).toEqual([
      { line: 2, fields: { title: 'Two\r\nlines', status: 'draft' } },
      { line: 4, fields: { title: 'next', status: 'published' } },
    ]);
  });

  it('refuses a file it cannot read as rows, naming the line', () => {
    const cases: [string, 'json' | 'csv', number, RegExp][] = [
      ['[{"title": "One"},\n{"title": }]', 'json', 2, /not valid JSON/],
      ['[{"title": "One"}', 'json', 1, /not closed/],
      ['[1]', 'json', 1, /JSON object/],
      ['{"a":1}\n[1,2]', 'json', 2, /JSON object/],
      ['title,status\nx\n', 'csv', 2, /has 1 fields where the header has 2/],
      ['title,title\nx,y\n', 'csv', 1, /names title twice/],
      ['title\n"open\n', 'csv', 2, /not closed/],
      ['title\nab"c\n', 'csv', 2, /quoted as a whole/],
      ['', 'csv', 1, /empty/],
    ];
    for (const [text, format, line, message] of cases) {
      let caught: unknown;
      try {
        readRecords(text, format);
      } catch (error) {
        caught = error;
      }
      expect(caught, text).toBeInstanceOf(ImportFormatError);
      expect((caught as ImportFormatError).line, text).toBe(line);
      expect((caught as ImportFormatError).message, text).toMatch(message);
    }
  });
});
