import type { CatalogFiles } from '../catalogs.js';

/**
 * The English catalogs' loaders by path, each namespace a chunk (this map is one too, loaded with
 * the first screen that needs one). It leaves out the catalogs `en-opening.ts` bundles with the
 * editor: a catalog in both would be split out of the opening chunk into one of its own.
 */
const files: CatalogFiles = import.meta.glob(
  ['./en/*.json', '!./en/{app,common,components,fields,pages-list,pages-row}.json'],
  { import: 'default' },
);
export default files;
