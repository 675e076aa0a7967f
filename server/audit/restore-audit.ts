import type { QuireDb } from '../db/database.js';
import { CLI_ACTOR } from './account-audit.js';
import { AuditService } from './audit-service.js';

/**
 * Records `quire restore` in the restored database itself (the log it replaced is gone with it):
 * the backup's folder and what came back. A failure is one line on standard error: the restore
 * itself is done.
 */
export async function recordRestore(database: QuireDb, backup: string, detail: Record<string, unknown>) {
  const audit = new AuditService(database.db, {
    log: (message, error) => console.error(`quire: ${message} ${(error as Error).message.split('\n')[0]}`),
  });
  await audit.record({ ...CLI_ACTOR, action: 'backup.restored', target: backup, detail });
}
