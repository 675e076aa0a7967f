import type { QuireDb } from '../db/database.js';
import { AuditService } from './audit-service.js';

/**
 * The audit log as a command records into it: a failure to record is one line on standard error
 * (never a stack trace), since the command's change is already made.
 */
export function cliAudit(database: QuireDb): AuditService {
  return new AuditService({
    db: database.db,
    log: (message, error) => console.error(`quire: ${message} ${(error as Error).message.split('\n')[0]}`),
  });
}
