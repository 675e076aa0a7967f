import { hash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

/**
 * Cheap re-fetches for site builds (issue 16): every GET under `/api` carries a strong `ETag` made
 * from the data it answers with, `Cache-Control: no-cache` (revalidate every time), and a request
 * whose `If-None-Match` names the current tag gets a 304 with no body.
 *
 * The tag is a hash of the JSON body without its `time` object: those phase timings differ on
 * every request while the data does not, so the same answer always has the same tag, and any
 * change to what a read returns (a row, a count, a related row's title) changes it. The read is
 * still computed for a 304; what is saved is the transfer and the client's work. (A version per
 * type would not do: a list also shows its relations' titles, which other types' writes change.)
 */

/** A JSON body ready to send: its UTF-8 bytes and its tag. */
export interface TaggedJson {
  bytes: Buffer;
  etag: string;
}

/**
 * The bytes of a JSON body and its strong ETag, which leaves out the per-request `time` timings.
 * The body is serialized and encoded once: the tag hashes the data's part of those same bytes.
 */
export function taggedJson(body: unknown): TaggedJson {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !('time' in body)) {
    const bytes = Buffer.from(JSON.stringify(body));
    return { bytes, etag: etagOf(bytes) };
  }
  const { time, ...data } = body as { time: unknown };
  const dataText = JSON.stringify(data);
  const head = `{"time":${JSON.stringify(time)}`;
  if (dataText === '{}') return { bytes: Buffer.from(`${head}}`), etag: etagOf('') };
  // `{"time":…` then the data's JSON with its `{` made a `,`, encoded straight into one buffer.
  const headBytes = Buffer.byteLength(head);
  const bytes = Buffer.allocUnsafe(headBytes + Buffer.byteLength(dataText));
  bytes.write(head, 0);
  bytes.write(dataText, headBytes);
  bytes[headBytes] = COMMA;
  // The tag hashes the data's JSON as sent but its opening brace, so the timings do not change it.
  return { bytes, etag: etagOf(bytes.subarray(headBytes + 1)) };
}

/**
 * SHA-1 by Node's one-shot `hash` (no Hash object per request), cut to 128 bits: the tag only
 * tells answers apart (no secret rests on it). Measured against createHash('sha256'): about half
 * the time per tag (issue 13: tags were ~8% of a GET's CPU).
 */
const TAG_HASH = 'sha1';
const COMMA = 0x2c;

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
 * `taggedJson` like the fast read path, anything else (`types.d.ts`) by its bytes.
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
