import { createRequire } from 'node:module';
import type pgTypes from 'pg';

/**
 * node-postgres, loaded with a `navigator` defined for the moment of its loading where Node has none
 * (Node 20). At load pg asks whether it runs in a Cloudflare Worker, and without `navigator` it asks
 * by constructing a `Response`, which loads Node's fetch implementation (undici): most of pg's
 * load time, at every PostgreSQL start, for nothing the server uses. Node 21 and later define
 * `navigator` themselves (with its `userAgent`), and then nothing is changed.
 */
export const pgModule: typeof pgTypes = loadPg();

function loadPg(): typeof pgTypes {
  const require = createRequire(import.meta.url);
  if ('navigator' in globalThis) return require('pg');
  const navigator = { userAgent: `Node.js/${process.versions.node.split('.')[0]}` };
  Object.defineProperty(globalThis, 'navigator', { value: navigator, configurable: true, writable: true });
  try {
    return require('pg');
  } finally {
    delete (globalThis as { navigator?: unknown }).navigator;
  }
}
