import type { ReactNode } from 'react';
import { vi } from 'vitest';
import type { ContentRow, ContentTypeSummary, ListResponse } from '../../../server/contract/api-contract.js';
import { ApiProvider } from '../api/api-context.js';
import type { ApiClient } from '../api/client.js';
import { ContentTypesProvider } from '../hooks/content-types.js';
import { RouterProvider } from '../routing/router.js';

/** A content type for tests, with the summary members the editor does not care about filled in. */
export function typeOf(
  slug: string,
  columns: ContentTypeSummary['columns'],
  extra: Partial<ContentTypeSummary> = {},
): ContentTypeSummary {
  return {
    content_type_id: slug,
    type: 'collection',
    table: slug,
    title: slug.charAt(0).toUpperCase() + slug.slice(1),
    status: 'published',
    slug,
    custom: false,
    preview_path: null,
    columns,
    ...extra,
  };
}

/** A saved row for tests. */
export function rowOf(values: Record<string, unknown> & { id: string }): ContentRow {
  return {
    meta: null,
    created_at: '2025-01-06 08:30:00.000000',
    updated_at: '2025-01-06 08:30:00.000000',
    created_by: 'ed',
    updated_by: 'ed',
    ...values,
  } as ContentRow;
}

/** A list answer holding these rows. */
export function listOf(rows: ContentRow[], total = rows.length): ListResponse {
  return {
    time: { total: 0, init: 0, filter: 0, data: 0, count: 0, format: 0 },
    total,
    filtered: total,
    count: rows.length,
    pk: 'id',
    rows,
    columns: [],
    filters: [],
    preview_path: null,
    custom: false,
  };
}

/**
 * An API double: every method is a vi.fn that rejects ("not expected in this test") unless the test
 * gives its own; content types come from `types`.
 */
export function fakeApi(types: ContentTypeSummary[], overrides: Partial<ApiClient> = {}): ApiClient {
  const unexpected = () => Promise.reject(new Error('not expected in this test'));
  return {
    listContentTypes: vi.fn(async () => types),
    listRows: vi.fn(async () => listOf([])),
    getRow: vi.fn(unexpected),
    createRow: vi.fn(unexpected),
    updateRow: vi.fn(unexpected),
    deleteRow: vi.fn(unexpected),
    createContentType: vi.fn(unexpected),
    updateContentType: vi.fn(unexpected),
    deleteContentType: vi.fn(unexpected),
    uploadFile: vi.fn(unexpected),
    ...overrides,
  };
}

/** The providers a widget may need (API, router, content types), around test content. */
export function WithApi({ api, children }: { api: ApiClient; children: ReactNode }) {
  return (
    <ApiProvider client={api}>
      <RouterProvider>
        <ContentTypesProvider>{children}</ContentTypesProvider>
      </RouterProvider>
    </ApiProvider>
  );
}
