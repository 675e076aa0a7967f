// What the editor costs to open: the files index.html loads up front (its entry script, the
// modules it preloads, its stylesheets) and the chunks loaded on demand, each with its gzip size.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Every asset of a built editor, with whether index.html loads it up front and its sizes in bytes. */
export function editorAssets(rendererDir) {
  const html = readFileSync(join(rendererDir, 'index.html'), 'utf8');
  const initial = new Set([...html.matchAll(/(?:src|href)="\/assets\/([^"]+)"/g)].map((match) => match[1]));
  return readdirSync(join(rendererDir, 'assets'))
    .filter((name) => /\.(?:js|css)$/.test(name))
    .map((name) => {
      const bytes = readFileSync(join(rendererDir, 'assets', name));
      return { name, initial: initial.has(name), size: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    })
    .sort((a, b) => Number(b.initial) - Number(a.initial) || b.gzip - a.gzip);
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;

/** One line for the build output: the initial load (gzip), then each chunk loaded on demand. */
export function bundleReport(rendererDir) {
  const assets = editorAssets(rendererDir);
  const initial = assets.filter((asset) => asset.initial);
  const total = initial.reduce((sum, asset) => sum + asset.gzip, 0);
  const onDemand = assets.filter((asset) => !asset.initial);
  // The message catalogs (a chunk per language and namespace, see renderer/vite.config.ts) as one entry.
  const catalogs = onDemand.filter((asset) => asset.name.startsWith('catalog-'));
  const later = onDemand
    .filter((asset) => !catalogs.includes(asset))
    .map((asset) => `${asset.name.replace(/-[\w-]{8}\.(js|css)$/, '')} ${kb(asset.gzip)}`);
  if (catalogs.length > 0) {
    later.push(
      `message catalogs (${catalogs.length} files) ${kb(catalogs.reduce((sum, asset) => sum + asset.gzip, 0))}`,
    );
  }
  return `Editor bundle: ${kb(total)} gzip to open (${initial.map((asset) => `${asset.name} ${kb(asset.gzip)}`).join(', ')}); loaded when needed: ${later.join(', ') || 'nothing'}`;
}
