import type { ErrorCode } from '../../common/api-contract.js';
import { ASSET_TEXT_LIMITS } from '../../common/asset-rules.js';
import type { JsonSchema } from '../fields/field.js';
import { UPLOAD_MEDIA_TYPES } from '../media/image-sniffing.js';
import type { Responses } from './openapi-account-paths.js';
import { ALWAYS_ERRORS } from './openapi-error-sets.js';
import { ref } from './openapi-schemas.js';

const string: JsonSchema = { type: 'string' };
const stringOrNull: JsonSchema = { type: ['string', 'null'] };
const pixels: JsonSchema = { type: ['integer', 'null'], minimum: 1, description: 'Pixels, when the header tells' };
const unit: JsonSchema = { type: 'number', minimum: 0, maximum: 1 };

/** The media library's shapes (common/asset-contract.ts). */
export function assetSchemas(): Record<string, JsonSchema> {
  const focal = ref('FocalPoint');
  const asset = {
    id: string,
    path: { ...string, description: 'The /media/ path rows hold; it stays when the file is replaced' },
    file_name: {
      ...string,
      description: 'The uploaded file’s name (the stored name for uploads older than the library)',
    },
    type: { type: 'string', enum: [...UPLOAD_MEDIA_TYPES] },
    size: { type: 'integer', minimum: 1, description: 'Bytes' },
    width: pixels,
    height: pixels,
    hash: { ...string, pattern: '^[0-9a-f]{64}$', description: 'sha256 of the stored bytes; changes with a replace' },
    alt: string,
    caption: string,
    credit: string,
    focal,
    folder: stringOrNull,
    uploaded_by: stringOrNull,
    uploaded_at: string,
    updated_at: string,
  };
  const required = Object.keys(asset);
  return {
    FocalPoint: {
      type: 'object',
      description: 'A point of the image: 0 is the left or top edge, 1 the right or bottom',
      properties: { x: unit, y: unit },
      required: ['x', 'y'],
      additionalProperties: false,
    },
    MediaAsset: { type: 'object', properties: asset, required, additionalProperties: false },
    MediaAssetDetail: {
      type: 'object',
      properties: {
        ...asset,
        used_in: {
          type: 'array',
          description: 'Rows the caller may read that name the asset’s path',
          items: {
            type: 'object',
            properties: { type: string, table: string, row: string, fields: { type: 'array', items: string } },
            required: ['type', 'table', 'row', 'fields'],
            additionalProperties: false,
          },
        },
        used_elsewhere: { type: 'integer', minimum: 0, description: 'Rows of types the caller may not read' },
      },
      required: [...required, 'used_in', 'used_elsewhere'],
      additionalProperties: false,
    },
    MediaList: {
      type: 'object',
      properties: {
        total: { type: 'integer', minimum: 0, description: 'Assets in the library' },
        filtered: { type: 'integer', minimum: 0, description: 'Assets matching the search and filters' },
        count: { type: 'integer', minimum: 0 },
        assets: { type: 'array', items: ref('MediaAsset') },
      },
      required: ['total', 'filtered', 'count', 'assets'],
      additionalProperties: false,
    },
    MediaAssetPatch: {
      type: 'object',
      properties: {
        alt: { ...string, maxLength: ASSET_TEXT_LIMITS.alt },
        caption: { ...string, maxLength: ASSET_TEXT_LIMITS.caption },
        credit: { ...string, maxLength: ASSET_TEXT_LIMITS.credit },
        focal,
        folder: { type: ['string', 'null'], maxLength: ASSET_TEXT_LIMITS.folder, description: 'null or "" for none' },
      },
      additionalProperties: false,
    },
    ImageLayout: {
      type: 'object',
      description: 'What a row read carries for one image value, under media, keyed by its path',
      properties: {
        alt: string,
        width: pixels,
        height: pixels,
        focal,
        hash: {
          ...string,
          pattern: '^[0-9a-f]{64}$',
          description: 'The asset’s content hash: the v of its variant URLs',
        },
      },
      required: ['alt', 'width', 'height', 'focal', 'hash'],
      additionalProperties: false,
    },
  };
}

/** The body of a request that sends a file: one file in a multipart form (its bytes tell its format). */
export const UPLOAD_BODY: JsonSchema = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
        required: ['file'],
      },
    },
  },
};

/**
 * The answers of a request that sends a file: the asset, or the refusals every upload can meet (too
 * large, not an image Quire stores) besides the route's own `errors`.
 */
export function uploadResponses(
  responses: Responses,
  status: number,
  description: string,
  errors: readonly ErrorCode[],
): JsonSchema {
  return responses(status, description, ref('MediaAsset'), ['payload_too_large', 'unsupported_media_type', ...errors]);
}

const idParameter: JsonSchema = { name: 'id', in: 'path', required: true, schema: string };

function query(name: string, description: string, schema: JsonSchema = string): JsonSchema {
  return { name, in: 'query', description, schema };
}

/** `/media`, `/media/by-path` and `/media/{id}`: the media library (`/uploads` adds to it). */
export function assetPaths(responses: Responses): Record<string, JsonSchema> {
  const tags = ['media'];
  const errors: ErrorCode[] = ['bad_request', 'not_found', ...ALWAYS_ERRORS];
  const flag: JsonSchema = { type: 'boolean', default: false };
  return {
    '/media': {
      get: {
        tags,
        operationId: 'listMedia',
        summary: 'The media library: a page of assets, newest first unless ordered otherwise',
        parameters: [
          query('search', 'Words looked for in the file name, alt text and caption (any case, anywhere)'),
          query('folder', 'Only assets in this folder'),
          query('type', 'Only this media type (image/png) or family (image/)'),
          query('unused', 'true: only assets no row names; false: only those some row names', flag),
          query('order', 'What to order by', {
            type: 'string',
            enum: ['uploaded_at', 'updated_at', 'file_name', 'size'],
            default: 'uploaded_at',
          }),
          query('desc', 'Descending (the default for uploaded_at)', { type: 'boolean' }),
          query('limit', 'Assets on the page', { type: 'integer', minimum: 0, maximum: 1000, default: 100 }),
          query('offset', 'Assets skipped', { type: 'integer', minimum: 0, default: 0 }),
        ],
        responses: responses(200, 'A page of assets with the totals', ref('MediaList'), errors),
      },
    },
    '/media/by-path': {
      get: {
        tags,
        operationId: 'getMediaByPath',
        summary: 'The asset a row’s value names, and the rows that use it (an image field shows its alt text)',
        parameters: [
          {
            ...query('path', 'The /media/ path a row holds (/media/YYYY/MM/<id>.<ext>)', {
              type: 'string',
              pattern: '^/media/\\d{4}/\\d{2}/[0-9a-f-]{36}\\.[a-z]+$',
            }),
            required: true,
          },
        ],
        responses: responses(200, 'The asset', ref('MediaAssetDetail'), errors),
      },
    },
    '/media/{id}': {
      parameters: [idParameter],
      get: {
        tags,
        operationId: 'getMedia',
        summary: 'One asset and the rows that use it',
        responses: responses(200, 'The asset', ref('MediaAssetDetail'), errors),
      },
      patch: {
        tags,
        operationId: 'describeMedia',
        summary: 'Changes an asset’s alt text, caption, credit, focal point or folder (authors: their own uploads)',
        requestBody: { required: true, content: { 'application/json': { schema: ref('MediaAssetPatch') } } },
        responses: responses(200, 'The asset as changed', ref('MediaAsset'), [
          'validation_failed',
          'forbidden',
          ...errors,
        ]),
      },
      delete: {
        tags,
        operationId: 'deleteMedia',
        summary: 'Deletes an asset and its file; refused (409, media_in_use naming the rows) while rows use it',
        parameters: [query('force', 'Delete even while rows use it (they then name a file that is gone)', flag)],
        responses: responses(200, 'The asset deleted', ref('MediaAsset'), ['conflict', 'forbidden', ...errors]),
      },
    },
    '/media/{id}/file': {
      parameters: [idParameter],
      put: {
        tags,
        operationId: 'replaceMediaFile',
        summary:
          'Replaces the asset’s file with one of the same format, keeping its id and path, so every row naming it shows the new file',
        requestBody: UPLOAD_BODY,
        responses: uploadResponses(responses, 200, 'The asset with the new file’s name, size, pixels and hash', [
          'forbidden',
          ...errors,
        ]),
      },
    },
  };
}
