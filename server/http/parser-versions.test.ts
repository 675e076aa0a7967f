import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/**
 * The request parsers must stay on releases with the known denial-of-service fixes; an install
 * that resolves an older one (a lockfile regression, an override) fails here:
 * - qs 6.14.2: arrayLimit bypasses in bracket and comma notation (memory exhaustion), after the
 *   6.10.3 prototype-pollution DoS;
 * - body-parser 2.2.1: the urlencoded parser's denial of service (2.2.0);
 * - express 5.0.0: the open-redirect and redirect-XSS fixes of 4.19.2 / 4.20.0 carried into 5.
 */
const MINIMUM: Record<string, string> = { qs: '6.14.2', 'body-parser': '2.2.1', express: '5.0.0' };

/** The version of a package as Express would load it (qs through body-parser's resolution). */
function installedVersion(name: string): string {
  const fromExpress = createRequire(createRequire(import.meta.url).resolve('express'));
  const fromBodyParser = createRequire(fromExpress.resolve('body-parser'));
  const resolver = name === 'qs' ? fromBodyParser : fromExpress;
  return (resolver(`${name}/package.json`) as { version: string }).version;
}

function atLeast(version: string, minimum: string): boolean {
  const a = version.split(/[.-]/).map(Number);
  const b = minimum.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}

describe('request parser versions', () => {
  for (const [name, minimum] of Object.entries(MINIMUM)) {
    it(`${name} is at least ${minimum}`, () => {
      const version = installedVersion(name);
      expect(atLeast(version, minimum), `${name} ${version}`).toBe(true);
    });
  }
});
