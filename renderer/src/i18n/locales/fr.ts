import { byNamespace } from '../catalog-files.js';

/** The French catalogs by namespace, one chunk of the built editor. */
export default byNamespace(import.meta.glob('./fr/*.json', { eager: true, import: 'default' }));
