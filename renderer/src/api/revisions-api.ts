import type {
  RestoreResponse,
  RevisionListResponse,
  RevisionResponse,
  TrashListResponse,
} from '../../../common/revision-contract.js';
import { call } from './auth-api.js';

/**
 * A row's history and a type's trash: `/api/cms/:type/:id/revisions...` and
 * `/api/cms/:type/trash...`, with the session (or token) every editor call carries.
 */
const rowPath = (type: string, id: string) => `/cms/${encodeURIComponent(type)}/${encodeURIComponent(id)}`;

export const revisionsApi = {
  list: (type: string, id: string, limit: number, offset = 0) =>
    call<RevisionListResponse>('GET', `${rowPath(type, id)}/revisions?limit=${limit}&offset=${offset}`),
  get: (type: string, id: string, revision: number) =>
    call<RevisionResponse>('GET', `${rowPath(type, id)}/revisions/${revision}`),
  restore: (type: string, id: string, revision: number) =>
    call<RestoreResponse>('POST', `${rowPath(type, id)}/revisions/${revision}/restore`),
  trash: (type: string, limit: number, offset = 0) =>
    call<TrashListResponse>('GET', `/cms/${encodeURIComponent(type)}/trash?limit=${limit}&offset=${offset}`),
  restoreFromTrash: (type: string, id: string) =>
    call<RestoreResponse>('POST', `/cms/${encodeURIComponent(type)}/trash/${encodeURIComponent(id)}/restore`),
};
