import { byNamespace } from '../catalog-files.js';

/** The Spanish catalogs by namespace, one chunk of the built editor. */
export default byNamespace(import.meta.glob('./es/*.json', { eager: true, import: 'default' }));
