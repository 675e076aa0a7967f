import type { IncomingMessage } from 'node:http';
import busboy, { type Busboy } from 'busboy';
import type { UploadResponse } from '../../common/api-contract.js';
import { AppError } from '../errors/app-error.js';
import { type MediaStore, type PendingMedia, tooLarge } from './media-store.js';

/** The name of the one file part an upload carries. */
export const UPLOAD_FIELD = 'file';

/**
 * Room for the multipart framing around the file (boundaries, the part's headers): a declared
 * Content-Length beyond the limit plus this is refused before a byte is read.
 */
const MULTIPART_OVERHEAD = 16 * 1024;

/** Parts beyond these are not parsed; a well-formed upload has exactly one. */
const MAX_PARTS = 10;

/** Longest client file name kept (the rest is cut off); the name only describes the file. */
const MAX_FILE_NAME = 255;

/** A kept upload and the name the client gave its file (never used to store it). */
export interface ReceivedUpload {
  kept: UploadResponse;
  /** The client's file name without any folder part, or null when it sent none. */
  fileName: string | null;
}

/** How a received file is kept: by default under a fresh generated name. */
export type KeepUpload = (pending: PendingMedia) => Promise<UploadResponse>;

const oneFileHint = `send multipart/form-data with one file part named "${UPLOAD_FIELD}"`;

/**
 * Parses a `multipart/form-data` upload with busboy, which streams the file part straight into the
 * media store (never buffering it whole) and stops passing bytes on past the limit. Refusals, each
 * leaving nothing on disk:
 * - not multipart/form-data: 415; a declared or actual file size over `maxBytes`: 413;
 * - no file part, an empty file, a second file, any other part, malformed multipart: 400;
 * - content that is not an allowed image: 415 (see `sniffImage`).
 * A 201 follows only once the file is fsynced under its final name. `keep` may keep it elsewhere
 * (a replacement at a stored file's path) or refuse it (throwing, after discarding it).
 */
export async function receiveUpload(
  req: IncomingMessage,
  store: MediaStore,
  maxBytes: number,
  keep: KeepUpload = (pending) => pending.commit(),
): Promise<ReceivedUpload> {
  checkRequestHead(req, maxBytes);
  let parser: Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      // One byte over the limit reaches the store, which then refuses the file with a 413 (busboy
      // flags a file of exactly `fileSize` bytes as truncated, so the limit itself is not used).
      limits: { fileSize: maxBytes + 1, files: 1, fields: MAX_PARTS, parts: MAX_PARTS, headerPairs: 20 },
    });
  } catch {
    throw new AppError('bad_request', `The multipart Content-Type has no boundary; ${oneFileHint}`);
  }

  // Set by the parser's callbacks: the file being received and the first problem with the request.
  const upload: { received: Promise<PendingMedia> | null; problem: AppError | null; fileName: string | null } = {
    received: null,
    problem: null,
    fileName: null,
  };
  const refuse = (error: AppError) => {
    upload.problem ??= error;
  };
  const parsed = new Promise<void>((resolve, reject) => {
    parser.on('file', (name, stream, info) => {
      if (name !== UPLOAD_FIELD) {
        refuse(new AppError('bad_request', `The upload has a file part named ${JSON.stringify(name)}; ${oneFileHint}`));
        stream.resume();
        return;
      }
      upload.fileName = clientFileName(info.filename);
      upload.received = store.receive(stream, maxBytes);
      // A refused or failed file (wrong type, disk full...) ends the request without waiting for the rest.
      upload.received.catch(reject);
    });
    parser.on('field', (name) =>
      refuse(new AppError('bad_request', `The upload has a form field ${JSON.stringify(name)}; ${oneFileHint}`)),
    );
    parser.on('filesLimit', () =>
      refuse(new AppError('bad_request', `The upload has more than one file; ${oneFileHint}`)),
    );
    parser.on('fieldsLimit', () =>
      refuse(new AppError('bad_request', `The upload has too many parts; ${oneFileHint}`)),
    );
    parser.on('partsLimit', () => refuse(new AppError('bad_request', `The upload has too many parts; ${oneFileHint}`)));
    parser.on('error', (error: Error) =>
      reject(new AppError('bad_request', `The multipart body is malformed (${error.message}); ${oneFileHint}`)),
    );
    parser.on('close', resolve);
    req.on('close', () => {
      if (!req.complete) reject(new AppError('bad_request', 'The upload was cut off before it ended'));
    });
  });
  req.pipe(parser);

  let pending: PendingMedia | null = null;
  try {
    await parsed;
    pending = upload.received ? await upload.received : null;
  } catch (error) {
    // Stop parsing; destroying the parser ends the file stream, so the store drops its temporary file.
    req.unpipe(parser);
    parser.destroy();
    await upload.received?.then(
      (media) => media.discard(),
      () => undefined,
    );
    // The unread rest of the body is drained so the connection stays usable for the answer.
    req.resume();
    throw error;
  }
  if (upload.problem) {
    await pending?.discard();
    throw upload.problem;
  }
  if (!pending) throw new AppError('bad_request', `The upload has no file; ${oneFileHint}`);
  return { kept: await keep(pending), fileName: upload.fileName };
}

/** The last segment of a client's file name, without control characters, or null when nothing is left. */
function clientFileName(raw: string | undefined): string | null {
  if (!raw) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const name = (raw.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return name === '' ? null : [...name].slice(0, MAX_FILE_NAME).join('');
}

/** Media type and declared length, checked before reading the body. */
function checkRequestHead(req: IncomingMessage, maxBytes: number): void {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'multipart/form-data') {
    throw new AppError('unsupported_media_type', `Uploads must be multipart/form-data; ${oneFileHint}`);
  }
  if (req.headers['content-encoding'] !== undefined && req.headers['content-encoding'] !== 'identity') {
    throw new AppError('unsupported_media_type', 'The upload Content-Encoding is not supported; send it uncompressed');
  }
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes + MULTIPART_OVERHEAD) {
    throw tooLarge(maxBytes);
  }
}
