/**
 * The messages between the desktop app's main process and the server child (an Electron
 * utilityProcess running `startServer`). Declared once here; both sides parse what they receive
 * with the functions below, so a malformed message is dropped, never half-trusted. This module
 * has no Node or Electron imports: it is plain data and checks.
 */

/** What the server child needs to serve a database. */
export interface ServerChildOptions {
  dbFile: string;
  port: number;
  host: string;
  /** Name recorded in created_by/updated_by. */
  editorName: string;
  /** Folder of the built editor, or null to serve the API only. */
  editorDir: string | null;
  /** better-sqlite3 addon built for Electron's ABI; absent when node_modules already holds one. */
  nativeBinding?: string;
}

/** Main process -> server child. */
export type ParentMessage = { type: 'start'; options: ServerChildOptions } | { type: 'stop' };

/** Server child -> main process. */
export type ChildMessage =
  /** Listening: requests can be served at `origin`. */
  | { type: 'ready'; origin: string; port: number; dbFile: string }
  /** Could not start; `explanation` is the one line a user reads, `code` the error code if any. */
  | { type: 'start-failed'; code: string | null; explanation: string }
  /** Closed cleanly after a `stop`; the child exits next. */
  | { type: 'stopped' }
  /** An unexpected server error, for the main process's log. */
  | { type: 'log'; message: string; detail: string };

type Fields = Record<string, unknown>;

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 65535;
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function parseOptions(value: unknown): ServerChildOptions | null {
  if (!isRecord(value)) return null;
  const { dbFile, port, host, editorName, editorDir, nativeBinding } = value;
  if (!isNonEmptyString(dbFile) || !isPort(port) || !isNonEmptyString(host) || typeof editorName !== 'string')
    return null;
  if (editorDir !== null && !isNonEmptyString(editorDir)) return null;
  if (nativeBinding !== undefined && !isNonEmptyString(nativeBinding)) return null;
  const options: ServerChildOptions = { dbFile, port, host, editorName, editorDir };
  if (nativeBinding !== undefined) options.nativeBinding = nativeBinding;
  return options;
}

/** Reads a message from the main process; null when it is not one of `ParentMessage`. */
export function parseParentMessage(data: unknown): ParentMessage | null {
  if (!isRecord(data)) return null;
  if (data.type === 'stop') return { type: 'stop' };
  if (data.type === 'start') {
    const options = parseOptions(data.options);
    return options ? { type: 'start', options } : null;
  }
  return null;
}

/** Reads a message from the server child; null when it is not one of `ChildMessage`. */
export function parseChildMessage(data: unknown): ChildMessage | null {
  if (!isRecord(data)) return null;
  switch (data.type) {
    case 'ready': {
      const { origin, port, dbFile } = data;
      if (!isNonEmptyString(origin) || !/^http:\/\//.test(origin) || !isPort(port) || port === 0) return null;
      if (!isNonEmptyString(dbFile)) return null;
      return { type: 'ready', origin, port, dbFile };
    }
    case 'start-failed': {
      const { code, explanation } = data;
      if ((code !== null && typeof code !== 'string') || !isNonEmptyString(explanation)) return null;
      return { type: 'start-failed', code, explanation };
    }
    case 'stopped':
      return { type: 'stopped' };
    case 'log': {
      const { message, detail } = data;
      if (typeof message !== 'string' || typeof detail !== 'string') return null;
      return { type: 'log', message, detail };
    }
    default:
      return null;
  }
}
