import { byNamespace } from '../catalog-files.js';

/** The German catalogs by namespace, one chunk of the built editor. */
export default byNamespace(import.meta.glob('./de/*.json', { eager: true, import: 'default' }));
