import type { ContentTypeRegistry } from '../content/content-type-registry.js';
import type { ContentTypeService } from '../content/content-type-service.js';
import type { RowService } from '../content/row-service.js';

/** What the HTTP handlers call; built once in `app.ts`. */
export interface Services {
  registry: ContentTypeRegistry;
  contentTypes: ContentTypeService;
  rows: RowService;
}
