import type { CatalogFiles } from '../catalogs.js';

/** The Spanish catalogs' loaders by path, each namespace a chunk (this map is one too, loaded with the language). */
const files: CatalogFiles = import.meta.glob('./es/*.json', { import: 'default' });
export default files;
