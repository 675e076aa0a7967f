import type { QuireDb } from '../db/database.js';
import { CLI_ACTOR } from './account-audit.js';
import { cliAudit } from './cli-audit.js';

/**
 * Records `quire restore` in the restored database itself (the log it replaced is gone with it):
 * the backup's folder and what came back.
 */
export async function recordRestore(database: QuireDb, backup: string, detail: Record<string, unknown>) {
  await cliAudit(database).record({ ...CLI_ACTOR, action: 'backup.restored', target: backup, detail });
}
