import { createHash } from 'node:crypto';
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

/** A JSON body ready to send: its text and its tag. */
export interface TaggedJson {
  text: string;
  etag: string;
}

/** The text of a JSON body and its strong ETag, which leaves out the per-request `time` timings. */
export function taggedJson(body: unknown): TaggedJson {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !('time' in body)) {
    const text = JSON.stringify(body);
    return { text, etag: etagOf(text) };
  }
  const { time, ...data } = body as { time: unknown };
  // One serialization: the data is hashed, then the timings are put in front of it.
  const dataText = JSON.stringify(data);
  const rest = dataText === '{}' ? '}' : `,${dataText.slice(1)}`;
  return { text: `{"time":${JSON.stringify(time)}${rest}`, etag: etagOf(dataText) };
}

/** The strong ETag of some bytes. */
export function etagOf(data: string | Uint8Array): string {
  return `"${createHash('sha256').update(data).digest('base64url').slice(0, 32)}"`;
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
      const { text, etag } = taggedJson(body);
      if (answerConditionally(req, res, etag)) return res;
      // As res.json would: send adds the charset.
      if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json');
      return send(text);
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
