import type { CatalogFiles } from '../catalogs.js';

/** The French catalogs' loaders by path, each namespace a chunk (this map is one too, loaded with the language). */
const files: CatalogFiles = import.meta.glob('./fr/*.json', { import: 'default' });
export default files;
