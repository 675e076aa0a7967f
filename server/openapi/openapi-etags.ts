import type { JsonSchema } from '../fields/field.js';
import { EVENT_STREAM_TYPE } from './openapi-event-paths.js';

/**
 * What every GET under /api says about revalidation (server/http/etag.ts): a strong `ETag` made
 * from the data and `Cache-Control: no-cache` on the answer, `If-None-Match` on the request, and
 * 304 with no body when it names the current tag.
 */

const VALIDATOR_HEADERS: Record<string, JsonSchema> = {
  ETag: {
    description:
      'A strong tag made from the data of the answer (the `time` timings left out): the same answer has the same tag, and a write changes the tags of exactly the answers it changes',
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description: 'Always `no-cache`: keep the answer, but revalidate it',
    schema: { type: 'string', const: 'no-cache' },
  },
};

const IF_NONE_MATCH: JsonSchema = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'The ETag of an answer held already: the server answers 304 with no body while it is still current',
  schema: { type: 'string' },
};

/**
 * `If-Match` on a row's or a content type's PUT, PATCH and DELETE (server/http/if-match.ts): the
 * write happens only over the version the tag names, else a 412 `stale_write`.
 */
export const IF_MATCH: JsonSchema = {
  name: 'If-Match',
  in: 'header',
  required: false,
  description:
    'The ETag of the read this write builds on, or `*` (it exists): compared strongly, and a 412 stale_write with what is stored now when it no longer matches; nothing is written. Without it the write goes through as before',
  schema: { type: 'string' },
};

/** The reusable 304 response. */
export function notModifiedResponse(): Record<string, JsonSchema> {
  return {
    NotModified: {
      description: 'The answer named by If-None-Match is still current; no body',
      headers: VALIDATOR_HEADERS,
    },
  };
}

/** Adds the validator headers, If-None-Match and the 304 to each GET of `paths` served under /api. */
export function withConditionalGets(paths: Record<string, JsonSchema>): Record<string, JsonSchema> {
  for (const item of Object.values(paths)) {
    const get = item.get as JsonSchema | undefined;
    // Media files are served beside /api, with their own caching.
    if (!get || item.servers) continue;
    const responses = get.responses as Record<string, JsonSchema>;
    // A browser redirect (single sign-on's steps) has no body to validate, an event stream no end.
    if (!responses['200'] || (responses['200'].content as JsonSchema | undefined)?.[EVENT_STREAM_TYPE]) continue;
    responses['200'] = { ...responses['200'], headers: VALIDATOR_HEADERS };
    responses['304'] = { $ref: '#/components/responses/NotModified' };
    get.parameters = [...((get.parameters as JsonSchema[] | undefined) ?? []), IF_NONE_MATCH];
  }
  return paths;
}
