import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const dist = resolve(new URL('../..', import.meta.url).pathname, 'dist');
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="4" height="3"/></svg>';
const CLEANED =
  '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"><rect width="4" height="3"/></svg>\n';

// The bundles start the worker in server/process/server-entry.test.ts (`quire serve`) and
// electron/server-child/server-child-bundle.test.ts (the desktop app's child); this is tsc's
// dist/, which needs `node scripts/build.mjs` too.
describe.skipIf(!existsSync(join(dist, 'server', 'media', 'svg-sanitizer.js')))('the built SVG cleaning worker', () => {
  it("is started by tsc's compiled sanitizer from beside it", async () => {
    const sanitizer = pathToFileURL(join(dist, 'server', 'media', 'svg-sanitizer.js')).href;
    const script = `import { sanitizeSvg } from ${JSON.stringify(sanitizer)};
process.stdout.write(await sanitizeSvg(${JSON.stringify(SVG)}));`;
    // A file, not `--input-type -e`: the worker inherits the command's options, and that one is for `-e` alone.
    const dir = mkdtempSync(join(tmpdir(), 'quire-svg-'));
    try {
      writeFileSync(join(dir, 'clean.mjs'), script);
      const { stdout } = await promisify(execFile)(process.execPath, [join(dir, 'clean.mjs')]);
      expect(stdout).toBe(CLEANED);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
