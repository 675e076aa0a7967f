import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from '../server/test-support/api-scenario.js';
import { jpegImage } from '../server/test-support/sample-images.js';
import { sessionCookie, sessionHeaders, TEAM_PASSWORD } from '../server/test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../server/test-support/test-server.js';
import {
  curlBlocks,
  type ExampleEnvironment,
  examplesProblems,
  noRunMarkers,
  shellCommands,
} from './docs-curl-examples.js';
import { documentationPages, parseMarkdown } from './docs-markdown.js';

const ROOT = join(import.meta.dirname, '..');
const pages = documentationPages(ROOT).map((page) => ({ ...page, blocks: curlBlocks(page.tokens) }));

let server: TestServer | null = null;
afterEach(async () => {
  await server?.dispose();
  server = null;
});

/** The server's address and the files every page's examples may read. */
function environment(running: TestServer, variables: Record<string, string> = {}): ExampleEnvironment {
  return { api: running.api, hostPort: new URL(running.origin).host, variables, files: { 'photo.jpg': jpegImage() } };
}

/**
 * What docs/accounts.md's examples start from: `ada`, the first admin (password `correct horse
 * battery staple`), an admin token in $ADMIN_TOKEN and a viewer's in $QUIRE_BUILD_TOKEN.
 */
async function accountsSetup(running: TestServer): Promise<Record<string, string>> {
  const first = await request(running, 'POST', '/auth/first-run', { json: { name: 'ada', password: TEAM_PASSWORD } });
  expect(first.response.status, first.text).toBe(201);
  const admin = sessionHeaders(running, sessionCookie(first.response) as string);
  const token = async (name: string, role: string) => {
    const { response, body, text } = await request(running, 'POST', '/tokens', {
      json: { name, role },
      headers: admin,
    });
    expect(response.status, text).toBe(201);
    return (body as { token: string }).token;
  };
  return { ADMIN_TOKEN: await token('admin-script', 'admin'), QUIRE_BUILD_TOKEN: await token('site-build', 'viewer') };
}

const SETUPS: Record<string, (running: TestServer) => Promise<Record<string, string>>> = {
  'docs/accounts.md': accountsSetup,
};

describe('the curl examples of the documentation', () => {
  it('each no-run marker stands before a curl block and gives its reason', () => {
    const marked = pages.flatMap((page) => page.blocks.filter((block) => block.noRun !== null));
    const markers = pages.reduce((count, page) => count + noRunMarkers(page.tokens), 0);
    expect(markers).toBeGreaterThan(0);
    expect(marked.length).toBe(markers);
    for (const block of marked) expect(block.noRun, block.code).not.toBe('');
  });

  it('the API pages have runnable examples', () => {
    for (const path of ['docs/api.md', 'docs/publishing.md', 'docs/accounts.md', 'docs/build-hooks.md']) {
      const page = pages.find((candidate) => candidate.path === path);
      expect(page?.blocks.filter((block) => block.noRun === null).length, path).toBeGreaterThan(0);
    }
  });

  for (const page of pages.filter((candidate) => candidate.blocks.some((block) => block.noRun === null))) {
    it(`${page.path}: every curl gets the status written after it, on a new database`, async () => {
      server = await startTestServer();
      const variables = (await SETUPS[page.path]?.(server)) ?? {};
      expect(await examplesProblems(page.path, page.blocks, environment(server, variables))).toEqual([]);
    });
  }
});

describe('examplesProblems', () => {
  const page = (markdown: string) => curlBlocks(parseMarkdown(markdown));

  it('fails an example whose answer is not the status it claims', async () => {
    server = await startTestServer();
    const blocks = page(
      '```sh\ncurl "$B/cms/news"   # -> 201\ncurl -X POST "$B/cms/news" -d title=x\n# -> 400\ncurl "$B/cms/nope"  # -> 404\n```\n',
    );
    expect(await examplesProblems('fixture.md', blocks, environment(server))).toEqual([
      'fixture.md: curl "$B/cms/news": expected 201, got 200',
    ]);
  });

  it('refuses a curl without a claimed status and a no-run marker without a reason, running nothing', async () => {
    server = await startTestServer();
    const blocks = page(
      '```sh\ncurl -X DELETE "$B/cms-content/news?force=true"\n```\n\n<!-- no-run: -->\n```sh\ncurl x  # -> 200\n```\n',
    );
    expect(await examplesProblems('fixture.md', blocks, environment(server))).toEqual([
      'fixture.md: no "# -> STATUS" after: curl -X DELETE "$B/cms-content/news?force=true"',
      'fixture.md: a no-run block gives no reason: curl x',
    ]);
    const types = await request(server, 'GET', '/cms-content');
    expect((types.body as { count: number }).count).toBe(4);
  });

  it('replaces 127.0.0.1:4780 with the server and keeps variables from one block to the next', async () => {
    server = await startTestServer();
    const blocks = page(
      '```sh\nid=$(curl -s -X POST http://127.0.0.1:4780/api/cms/news/doc-row -d title=Doc -d status=draft \\\n' +
        '  --data-urlencode "published_at=2025-01-01 00:00:00" | jq -r .id)   # -> 201\n```\n\n' +
        'text\n\n```sh\ncurl -s "$B/cms/news/$id" | jq -e \'.rows[0].title == "Doc"\'\n# -> 200\n```\n',
    );
    expect(await examplesProblems('fixture.md', blocks, environment(server))).toEqual([]);
  });
});

describe('shellCommands', () => {
  it('joins continued and quoted lines and reads the status on the line or the comment lines after it', () => {
    const commands = shellCommands(
      '# a heading comment\ncurl -X POST "$B/x" -d \'{\n  "a": "# not a comment"\n}\'\n# what it does\n# -> 201 {...}\n' +
        'curl "$B/y" \\\n  -G   # -> 200\ncurl -s "$B/z" | jq . | curl -X PUT "$B/z" -d @-\n# -> 200\necho done\n',
    );
    expect(commands).toEqual([
      { firstLine: 'curl -X POST "$B/x" -d \'{', curls: 1, expected: 201 },
      { firstLine: 'curl "$B/y"    -G', curls: 1, expected: 200 },
      { firstLine: 'curl -s "$B/z" | jq . | curl -X PUT "$B/z" -d @-', curls: 2, expected: 200 },
      { firstLine: 'echo done', curls: 0, expected: null },
    ]);
  });
});
