import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

const MEDIA_PATH = /\/media\/\d{4}\/\d{2}\/[0-9a-f-]+\.(?:png|jpg|gif|webp|avif)/g;

/** The bytes of an upload, from the export folder or the server. */
async function mediaFile(path) {
  if (process.env.QUIRE_EXPORT) return readFile(join(process.env.QUIRE_EXPORT, ...path.split('/').filter(Boolean)));
  const origin = (process.env.QUIRE_URL || 'http://127.0.0.1:4780').replace(/\/$/, '');
  const headers = process.env.QUIRE_TOKEN ? { Authorization: `Bearer ${process.env.QUIRE_TOKEN}` } : {};
  const response = await fetch(`${origin}${path}`, { headers });
  if (!response.ok) throw new Error(`${path}: ${response.status} from Quire`);
  return Buffer.from(await response.arrayBuffer());
}

export default function (eleventyConfig) {
  // The uploads the built pages show are copied into the site, so it serves its images itself.
  eleventyConfig.on('eleventy.after', async ({ directories, results }) => {
    const used = new Set();
    for (const { content } of results) for (const match of String(content).matchAll(MEDIA_PATH)) used.add(match[0]);
    for (const path of used) {
      const target = join(directories.output, ...path.split('/').filter(Boolean));
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, await mediaFile(path));
    }
  });
}

export const config = {
  dir: { input: 'src', data: '../_data' },
  templateFormats: ['njk'],
};
