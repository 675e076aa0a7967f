import type {
  HookCreatedResponse,
  HookDelivery,
  HookDeliveryListResponse,
  HookListResponse,
  HookRequest,
  HookSummary,
  ScheduleResponse,
} from '../../../common/publishing-contract.js';
import { call } from './auth-api.js';

/**
 * Scheduled changes and build hooks: `/api/cms/:type/:id/schedule` and `/api/hooks...`,
 * with the session (or token) every editor call carries.
 */
const schedulePath = (type: string, id: string) =>
  `/cms/${encodeURIComponent(type)}/${encodeURIComponent(id)}/schedule`;
const hookPath = (id: string) => `/hooks/${encodeURIComponent(id)}`;

export const publishingApi = {
  schedule: (type: string, id: string) => call<ScheduleResponse>('GET', schedulePath(type, id)),
  setSchedule: (type: string, id: string, status: string, at: string) =>
    call<ScheduleResponse>('POST', schedulePath(type, id), { status, at }),
  cancelSchedule: (type: string, id: string) => call<ScheduleResponse>('DELETE', schedulePath(type, id)),
  hooks: () => call<HookListResponse>('GET', '/hooks'),
  addHook: (hook: HookRequest) => call<HookCreatedResponse>('POST', '/hooks', hook),
  changeHook: (id: string, changes: HookRequest) => call<HookSummary>('PATCH', hookPath(id), changes),
  removeHook: (id: string) => call<{ id: string; deleted: true }>('DELETE', hookPath(id)),
  testHook: (id: string) => call<HookDelivery>('POST', `${hookPath(id)}/test`),
  deliveries: (id: string, limit = 20) =>
    call<HookDeliveryListResponse>('GET', `${hookPath(id)}/deliveries?limit=${limit}`),
};
