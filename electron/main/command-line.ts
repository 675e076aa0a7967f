import { parseArgs } from 'node:util';
import { parsePort } from './port-choice.js';

/** What the desktop app takes from its command line and environment (as `npm run serve` does). */
export interface DesktopArgs {
  argDb?: string;
  envDb?: string;
  argPort?: number;
  envPort?: number;
  /** One line per malformed value; the app reports them instead of starting. */
  problems: string[];
}

/**
 * Reads `--db FILE` and `--port N` (and `QUIRE_DB`, `QUIRE_PORT`). Everything else on the command
 * line is left alone: Electron and Chromium switches (`--enable-logging`, the debugging flags a
 * test driver adds) share it.
 */
export function parseDesktopArgs(args: string[], env: NodeJS.ProcessEnv): DesktopArgs {
  const { values } = parseArgs({
    args,
    strict: false,
    allowPositionals: true,
    options: { db: { type: 'string' }, port: { type: 'string' } },
  });
  const result: DesktopArgs = { problems: [] };
  if (typeof values.db === 'string' && values.db.trim()) result.argDb = values.db;
  if (env.QUIRE_DB?.trim()) result.envDb = env.QUIRE_DB;
  const readPort = (text: unknown, name: string): number | undefined => {
    const port = parsePort(typeof text === 'string' ? text : undefined, name);
    if (typeof port === 'object') {
      result.problems.push(port.error);
      return undefined;
    }
    return port;
  };
  const argPort = readPort(values.port, '--port');
  if (argPort !== undefined) result.argPort = argPort;
  const envPort = readPort(env.QUIRE_PORT, 'QUIRE_PORT');
  if (envPort !== undefined) result.envPort = envPort;
  return result;
}
