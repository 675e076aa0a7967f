import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  blockColumns,
  blockType,
  dateColumn,
  formatDate,
  formatDatetime,
  formatNumber,
  imageAlt,
  isBlock,
  isoDate,
  paragraphs,
  renderMarkdown,
  richtextHtml,
  shownColumns,
  siteTitle,
} from './quire-format.js';
import { IMAGE_SIZES } from './quire-images.js';
import { mediaFile } from './quire-source.js';

// Uploads (`<uuid>.png`) and, from an export, their variants (`<uuid>-480w-<hash>.webp`).
const MEDIA_PATH = /\/media\/\d{4}\/\d{2}\/[0-9a-z-]+\.(?:png|jpg|gif|webp|avif)/g;

export default function (eleventyConfig) {
  eleventyConfig.addGlobalData('site', { title: siteTitle });
  // A Nunjucks global, so the field macro sees it whatever context it is called in.
  eleventyConfig.addNunjucksGlobal('imageSizes', IMAGE_SIZES);
  // `quire export --watch` writes the export's index last on each save: `eleventy --serve` rebuilds then.
  if (process.env.QUIRE_EXPORT) eleventyConfig.addWatchTarget(join(process.env.QUIRE_EXPORT, 'index.json'));
  // What the templates in src/_includes use to lay out a row's values by their column types.
  eleventyConfig.addFilter('markdown', renderMarkdown);
  eleventyConfig.addFilter('richtext', (value, entry) => richtextHtml(value, entry.rowPaths));
  eleventyConfig.addFilter('blockType', blockType);
  eleventyConfig.addFilter('blockColumns', blockColumns);
  // The layout macro of blocks.njk named like a block type (its own members only, never Object's).
  eleventyConfig.addFilter('layoutOf', (layouts, name) => (Object.hasOwn(layouts, name) ? layouts[name] : null));
  eleventyConfig.addFilter('formatDate', formatDate);
  eleventyConfig.addFilter('formatDatetime', formatDatetime);
  eleventyConfig.addFilter('isoDate', isoDate);
  eleventyConfig.addFilter('formatNumber', formatNumber);
  eleventyConfig.addFilter('paragraphs', paragraphs);
  eleventyConfig.addFilter('imageAlt', (entry, column, described) =>
    imageAlt(entry.type, entry.row, column, described),
  );
  eleventyConfig.addFilter('shownColumns', (entry) => shownColumns(entry.type, entry.row));
  eleventyConfig.addFilter('isBlock', (column) => isBlock(column));
  eleventyConfig.addFilter('dateColumn', dateColumn);
  eleventyConfig.addFilter(
    'optionText',
    (value, column) => column.options?.find((option) => option.id === value)?.text ?? value,
  );

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
