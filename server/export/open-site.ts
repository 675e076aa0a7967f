import { createApp, mediaStoreFor } from '../app.js';
import type { DatabaseChoice } from '../config/database-choice.js';
import { openDatabaseAt, type QuireDb } from '../db/database.js';
import type { Services } from '../http/services.js';
import type { MediaStore } from '../media/media-store.js';

/** A site opened for reading by a command: its database, the services the API uses, its media. */
export interface OpenSite {
  database: QuireDb;
  services: Services;
  media: MediaStore | null;
  close(): Promise<void>;
}

/**
 * Opens a site the way `quire serve` does, without listening: the same services, so a command
 * reads exactly what the API would answer. Another server may be serving the database meanwhile.
 */
export async function openSite(choice: DatabaseChoice): Promise<OpenSite> {
  // Commands read lists and rows, never search: an index built on their first list is wasted work.
  const database = await openDatabaseAt(choice, { memorySearch: false });
  try {
    const { services } = await createApp({ database, editorName: null, log: () => {} });
    return { database, services, media: mediaStoreFor(database)?.store ?? null, close: () => database.close() };
  } catch (error) {
    await database.close();
    throw error;
  }
}
