/** One namespace's messages: nested objects of strings. */
export interface Catalog {
  [key: string]: string | Catalog;
}

/** A language's catalogs keyed by namespace, from the JSON files a glob found (`./xx/<namespace>.json`). */
export function byNamespace(files: Record<string, unknown>): Record<string, Catalog> {
  const catalogs: Record<string, Catalog> = {};
  for (const [path, catalog] of Object.entries(files)) {
    const match = /\/([^/]+)\.json$/.exec(path);
    if (match) catalogs[match[1]] = catalog as Catalog;
  }
  return catalogs;
}
