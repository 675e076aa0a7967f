import { byNamespace } from '../catalog-files.js';

/** The English catalogs by namespace, one chunk of the built editor. */
export default byNamespace(import.meta.glob('./en/*.json', { eager: true, import: 'default' }));
