/**
 * Reading rows to import: a JSON array, NDJSON (one JSON object per line) or CSV with a header row.
 * Each record carries the line it starts on, so a bad row can be named in the file.
 */

/** One record of an import file: field name to value, and where it starts. */
export interface ImportRecord {
  line: number;
  fields: Record<string, unknown>;
}

/** A file that cannot be read as rows at all (as opposed to one bad row). */
export class ImportFormatError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** The formats understood; `json` covers both a JSON array and NDJSON. */
export type ImportFormat = 'json' | 'csv';

/** The format a file name implies: `.csv` is CSV, `.json`, `.ndjson` and `.jsonl` are JSON. */
export function formatOf(fileName: string): ImportFormat | null {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.json') || lower.endsWith('.ndjson') || lower.endsWith('.jsonl')) return 'json';
  return null;
}

/** Reads every record of a file's text. */
export function readRecords(text: string, format: ImportFormat): ImportRecord[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (format === 'csv') return readCsv(body);
  return body.trimStart().startsWith('[') ? readJsonArray(body) : readNdjson(body);
}

function asFields(value: unknown, line: number): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ImportFormatError('each row must be a JSON object of field values', line);
  }
  return value as Record<string, unknown>;
}

function parseJson(text: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ImportFormatError(`not valid JSON (${(error as Error).message})`, line);
  }
}

/** One JSON object per non-empty line. */
function readNdjson(text: string): ImportRecord[] {
  const records: ImportRecord[] = [];
  let line = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    line++;
    const content = text.slice(start, end).trim();
    if (content !== '') records.push({ line, fields: asFields(parseJson(content, line), line) });
    start = end + 1;
  }
  return records;
}

/**
 * A JSON array of objects, split into its elements by a scan that tracks strings and nesting, so each
 * element is parsed on its own and known by the line it starts on.
 */
function readJsonArray(text: string): ImportRecord[] {
  const records: ImportRecord[] = [];
  let line = 1;
  let i = 0;
  const n = text.length;
  const skipSpace = () => {
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) line++;
      else if (c !== 32 && c !== 9 && c !== 13) break;
    }
  };
  skipSpace();
  i++; // the opening [
  skipSpace();
  if (text[i] === ']') return ensureEnd(text, i + 1, line, records);
  for (;;) {
    skipSpace();
    const startLine = line;
    const start = i;
    let depth = 0;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        // A string: skip to its closing quote, over escapes.
        for (i++; i < n; i++) {
          const d = text.charCodeAt(i);
          if (d === 92) i++;
          else if (d === 34) break;
          else if (d === 10) line++;
        }
      } else if (c === 123 || c === 91) depth++;
      else if (c === 125 || c === 93) {
        if (depth === 0) break;
        depth--;
      } else if (c === 44 && depth === 0) break;
      else if (c === 10) line++;
    }
    if (i >= n) throw new ImportFormatError('the JSON array is not closed', line);
    records.push({ line: startLine, fields: asFields(parseJson(text.slice(start, i), startLine), startLine) });
    if (text[i] === ']') return ensureEnd(text, i + 1, line, records);
    i++; // the comma
  }
}

function ensureEnd(text: string, from: number, line: number, records: ImportRecord[]): ImportRecord[] {
  if (text.slice(from).trim() !== '') throw new ImportFormatError('text after the end of the JSON array', line);
  return records;
}

/**
 * CSV (RFC 4180): a header row names the fields; fields may be quoted with `"`, a quote inside a
 * quoted field is doubled, and quoted fields may hold commas and line breaks. Empty lines are skipped.
 *
 * Written here rather than with csv-parse: csv-parse is slower on large files, counts a CRLF inside
 * quotes as two lines (so later rows would be named on the wrong line), and the code needed around
 * it for our line numbers and messages is as long as this reader.
 */
function readCsv(text: string): ImportRecord[] {
  const rows = csvRows(text);
  const header = rows.shift();
  if (!header) throw new ImportFormatError('the CSV file is empty; its first row must name the fields', 1);
  const names = header.cells.map((name) => name.trim());
  const seen = new Set<string>();
  for (const name of names) {
    if (name === '') throw new ImportFormatError('the header row has an empty field name', header.line);
    if (seen.has(name)) throw new ImportFormatError(`the header row names ${name} twice`, header.line);
    seen.add(name);
  }
  return rows.map(({ line, cells }) => {
    if (cells.length !== names.length) {
      throw new ImportFormatError(`has ${cells.length} fields where the header has ${names.length}`, line);
    }
    const fields: Record<string, unknown> = {};
    names.forEach((name, index) => {
      fields[name] = cells[index];
    });
    return { line, fields };
  });
}

function csvRows(text: string): { line: number; cells: string[] }[] {
  const rows: { line: number; cells: string[] }[] = [];
  let line = 1;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const startLine = line;
    const cells: string[] = [];
    let lineEnded = false;
    while (!lineEnded) {
      let cell = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= n) throw new ImportFormatError('a quoted field is not closed', startLine);
          const quote = text.indexOf('"', i);
          if (quote < 0) throw new ImportFormatError('a quoted field is not closed', startLine);
          const piece = text.slice(i, quote);
          for (let k = piece.indexOf('\n'); k >= 0; k = piece.indexOf('\n', k + 1)) line++;
          cell += piece;
          if (text[quote + 1] === '"') {
            cell += '"';
            i = quote + 2;
          } else {
            i = quote + 1;
            break;
          }
        }
        const next = text[i];
        if (next !== ',' && next !== '\n' && next !== '\r' && next !== undefined) {
          throw new ImportFormatError('a quoted field must end at a comma or the end of the line', line);
        }
      } else {
        let end = i;
        while (end < n && text[end] !== ',' && text[end] !== '\n' && text[end] !== '\r') end++;
        cell = text.slice(i, end);
        if (cell.includes('"')) throw new ImportFormatError('a field with a quote must be quoted as a whole', line);
        i = end;
      }
      cells.push(cell);
      if (text[i] === ',') i++;
      else {
        if (text[i] === '\r') i++;
        if (text[i] === '\n') i++;
        line++;
        lineEnded = true;
      }
    }
    if (!(cells.length === 1 && cells[0] === '')) rows.push({ line: startLine, cells });
  }
  return rows;
}
