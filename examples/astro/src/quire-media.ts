/**
 * Copies the uploads the built pages show (`/media/...` in their HTML) from Quire into the site,
 * so the site serves its images itself, with or without a Quire server.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { mediaFile } from './quire-source';

// Uploads (`<uuid>.png`) and, from an export, their variants (`<uuid>-480w-<hash>.webp`).
const MEDIA_PATH = /\/media\/\d{4}\/\d{2}\/[0-9a-z-]+\.(?:png|jpg|gif|webp|avif)/g;

async function htmlFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await htmlFiles(path)));
    else if (entry.name.endsWith('.html')) found.push(path);
  }
  return found;
}

export function quireMedia(): AstroIntegration {
  return {
    name: 'quire-media',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const out = fileURLToPath(dir);
        const used = new Set<string>();
        for (const file of await htmlFiles(out)) {
          for (const match of (await readFile(file, 'utf8')).matchAll(MEDIA_PATH)) used.add(match[0]);
        }
        for (const path of used) {
          const target = join(out, ...path.split('/').filter(Boolean));
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, await mediaFile(path));
        }
        logger.info(`copied ${used.size} media files from Quire`);
      },
    },
  };
}
