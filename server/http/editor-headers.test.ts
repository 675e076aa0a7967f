import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { EDITOR_CONTENT_SECURITY_POLICY } from './editor-headers.js';

/** Directives the desktop window's security relies on, as the browser reads them. */
function directives(policy: string): Map<string, string> {
  return new Map(
    policy.split(';').map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name, sources.join(' ')] as [string, string];
    }),
  );
}

describe('editor Content-Security-Policy', () => {
  let server: TestServer;
  let editorDir: string;

  beforeAll(async () => {
    editorDir = mkdtempSync(join(tmpdir(), 'quire-editor-'));
    writeFileSync(
      join(editorDir, 'index.html'),
      '<!doctype html><title>Quire</title><script type="module" src="/assets/app.js"></script>',
    );
    mkdirSync(join(editorDir, 'assets'));
    writeFileSync(join(editorDir, 'assets', 'app.js'), 'console.log("editor")');
    server = await startTestServer({ editorDir });
  });
  afterAll(async () => {
    await server?.dispose();
    rmSync(editorDir, { recursive: true, force: true });
  });

  const scenarios = [
    { name: 'the editor page', url: '/', contentType: 'text/html' },
    { name: 'an editor asset', url: '/assets/app.js', contentType: 'javascript' },
    { name: 'a client-side route that loads the editor page', url: '/news/123', contentType: 'text/html' },
  ];
  for (const scenario of scenarios) {
    it(`is sent with ${scenario.name}`, async () => {
      const response = await fetch(`${server.origin}${scenario.url}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain(scenario.contentType);
      expect(response.headers.get('content-security-policy')).toBe(EDITOR_CONTENT_SECURITY_POLICY);
    });
  }

  it('allows only same-origin scripts and connections, and forbids framing and base rewriting', async () => {
    const response = await fetch(`${server.origin}/`);
    const policy = directives(response.headers.get('content-security-policy') ?? '');
    expect(Object.fromEntries(policy)).toEqual({
      'default-src': "'self'",
      'img-src': "'self' data: blob:",
      'style-src': "'self' 'unsafe-inline'",
      'script-src': "'self'",
      'connect-src': "'self'",
      'frame-ancestors': "'none'",
      'base-uri': "'none'",
      'form-action': "'self'",
    });
  });

  it('leaves the API working under the editor origin', async () => {
    const response = await fetch(`${server.api}/cms/news`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { pk: string }).pk).toBe('id');
  });
});
