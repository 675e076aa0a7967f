import { hash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

/**
 * Cheap re-fetches for site builds: every GET under `/api` carries a strong `ETag` made
 * from the data it answers with, `Cache-Control: no-cache` (revalidate every time), and a request
 * whose `If-None-Match` names the current tag gets a 304 with no body.
 *
 * The tag is a hash of the JSON body without its `time` object: those phase timings differ on
 * every request while the data does not, so the same answer always has the same tag, and any
 * change to what a read returns (a row, a count, a related row's title) changes it. The read is
 * still computed for a 304; what is saved is the transfer and the client's work. (A version per
 * type would not do: a list also shows its relations' titles, which other types' writes change.)
 *
 * A single row's read leaves its type's counts (`total`, `filtered`) out of its tag: its tag then
 * changes only when what it shows of the row does, so a write to another row never makes the row
 * look changed to someone holding it open, and `If-Match` (conditional writes) compares this tag.
 */

/** The members of a single row's read left out of its tag: its type's counts, which other rows' writes change. */
export const ROW_READ_UNTAGGED: readonly string[] = ['total', 'filtered'];

/** A JSON body ready to send: its UTF-8 bytes and its tag. */
export interface TaggedJson {
  bytes: Buffer;
  etag: string;
}

/** A JSON body ready to send as text (`res.end` encodes it with the head), and its tag. */
export interface TaggedText {
  text: string;
  etag: string;
}

/**
 * The bytes of a JSON body and its strong ETag, which leaves out the per-request `time` timings.
 * The body is serialized and encoded once: the tag hashes the data's part of that same JSON.
 */
export function taggedJson(body: unknown): TaggedJson {
  const { text, etag } = taggedJsonText(body);
  return { bytes: Buffer.from(text), etag };
}

/**
 * `taggedJson` as text. `knownColumns`, a content type's published column descriptors (built
 * once per type and never changed in place), lets a body whose `columns` hold exactly those
 * objects reuse their JSON: they are most of a single row's answer and the same on every read.
 * `untagged` names members sent but left out of the tag (see ROW_READ_UNTAGGED).
 */
export function taggedJsonText(
  body: unknown,
  knownColumns?: readonly object[],
  untagged?: readonly string[],
): TaggedText {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !('time' in body)) {
    const text = JSON.stringify(body);
    return { text, etag: etagOf(text) };
  }
  const fields = body as Record<string, unknown>;
  // `{"time":…` then the data's members: the timings first, left out of the tag.
  const { members, tagged } = dataMembers(fields, knownColumns, untagged);
  const head = `{"time":${JSON.stringify(fields.time)}`;
  if (members === '') return { text: `${head}}`, etag: etagOf('') };
  // The tag hashes the data's JSON but its opening brace (as `{"a":1}` without `{`), as before.
  return { text: `${head},${members}}`, etag: etagOf(`${tagged}}`) };
}

/**
 * The members of an object's JSON but `time`, comma-separated, in JSON.stringify's order; `tagged`
 * the same without the `untagged` ones.
 */
function dataMembers(
  fields: Record<string, unknown>,
  knownColumns: readonly object[] | undefined,
  untagged: readonly string[] | undefined,
): { members: string; tagged: string } {
  if (typeof fields.toJSON === 'function') {
    const { time: _time, ...data } = fields;
    const members = JSON.stringify(data).slice(1, -1);
    return { members, tagged: members };
  }
  let members = '';
  let tagged = '';
  for (const key of Object.keys(fields)) {
    if (key === 'time') continue;
    const value = fields[key];
    const json =
      key === 'columns' && knownColumns && sameItems(value, knownColumns)
        ? columnsJson(knownColumns)
        : JSON.stringify(value);
    // JSON.stringify leaves out members whose value has no JSON (undefined, functions).
    if (json === undefined) continue;
    const member = `${memberName(key)}${json}`;
    members += members === '' ? member : `,${member}`;
    if (!untagged?.includes(key)) tagged += tagged === '' ? member : `,${member}`;
  }
  return { members, tagged: untagged ? tagged : members };
}

function sameItems(value: unknown, items: readonly object[]): boolean {
  if (!Array.isArray(value) || value.length !== items.length) return false;
  for (let i = 0; i < items.length; i++) if (value[i] !== items[i]) return false;
  return true;
}

const COLUMNS_JSON = new WeakMap<readonly object[], string>();

function columnsJson(columns: readonly object[]): string {
  let json = COLUMNS_JSON.get(columns);
  if (json === undefined) {
    json = JSON.stringify(columns);
    COLUMNS_JSON.set(columns, json);
  }
  return json;
}

const MEMBER_NAMES = new Map<string, string>();

/** `"name":`, kept for the few names bodies use. */
function memberName(key: string): string {
  let name = MEMBER_NAMES.get(key);
  if (name === undefined) {
    name = `${JSON.stringify(key)}:`;
    if (MEMBER_NAMES.size < 256) MEMBER_NAMES.set(key, name);
  }
  return name;
}

/**
 * SHA-1 by Node's one-shot `hash` (no Hash object per request), cut to 128 bits: the tag only
 * tells answers apart (no secret rests on it), and every GET makes one: it costs less than
 * createHash('sha256').
 */
const TAG_HASH = 'sha1';

/** The strong ETag of some bytes (a string as UTF-8). */
export function etagOf(data: string | Uint8Array): string {
  return `"${hash(TAG_HASH, data, 'hex').slice(0, 32)}"`;
}

/** Whether an `If-None-Match` header names `etag` (or is `*`); weak tags compare weakly, as RFC 9110 says. */
export function ifNoneMatchHits(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text.trim() === '*') return true;
  return text.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Sets the validator headers of a 200 read and, when the request already holds this answer, ends
 * it as a 304 with no body. Returns whether it did (then nothing else may be sent).
 */
export function answerConditionally(req: IncomingMessage, res: ServerResponse, etag: string): boolean {
  res.setHeader('ETag', etag);
  if (!res.hasHeader('Cache-Control')) res.setHeader('Cache-Control', 'no-cache');
  if (!ifNoneMatchHits(req.headers['if-none-match'], etag)) return false;
  res.statusCode = 304;
  for (const name of ['Content-Type', 'Content-Length', 'Transfer-Encoding']) res.removeHeader(name);
  res.end();
  return true;
}

/**
 * Express middleware for `/api`: tags every successful GET (and HEAD) answer, JSON through
 * `taggedJson` like the row routes' reads, anything else (`types.d.ts`) by its bytes.
 */
export function conditionalGets(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const send = res.send.bind(res);
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      if (res.statusCode !== 200) return json(body);
      const { bytes, etag } = taggedJson(body);
      if (answerConditionally(req, res, etag)) return res;
      // As res.json would. send adds a charset to a string's Content-Type, not to a Buffer's.
      if (res.hasHeader('Content-Type')) return send(bytes.toString());
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      return send(bytes);
    };
    res.send = (body?: unknown) => {
      if (res.statusCode === 200 && !res.hasHeader('ETag') && (typeof body === 'string' || Buffer.isBuffer(body))) {
        if (answerConditionally(req, res, etagOf(body))) return res;
      }
      return send(body);
    };
    next();
  };
}
