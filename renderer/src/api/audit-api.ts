import type { AuditListResponse } from '../../../common/audit-contract.js';
import { call } from './auth-api.js';

/** What the Audit screen narrows the log by; empty members are left out. */
export interface AuditQuery {
  action: string;
  actor: string;
  target: string;
  /** `YYYY-MM-DD` (UTC), the whole day included. */
  since: string;
  until: string;
}

/** The audit log (`GET /api/audit`, admins), a page at a time. */
export const auditApi = {
  list(query: AuditQuery, limit: number, offset: number): Promise<AuditListResponse> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value.trim() !== '') params.set(name, value.trim());
    params.set('limit', String(limit));
    params.set('offset', String(offset));
    return call<AuditListResponse>('GET', `/audit?${params}`);
  },
};
