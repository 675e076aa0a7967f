import type { ReactNode } from 'react';
import { vi } from 'vitest';
import type {
  ColumnDescriptor,
  ContentRow,
  ContentTypeSummary,
  ListResponse,
  PublishedColumn,
} from '../../../common/api-contract.js';
import { searchColumnsOf, titleColumnOf } from '../../../common/title-rules.js';
import { fieldFor } from '../../../server/fields/field-registry.js';
import { ApiProvider } from '../api/api-context.js';
import type { ApiClient } from '../api/client.js';
import { ContentTypesProvider } from '../hooks/content-types.js';
import { RouterProvider } from '../routing/router.js';

/** Descriptors as the server publishes them (what each column allows comes from the server's field types). */
export function published(columns: readonly ColumnDescriptor[]): PublishedColumn[] {
  return columns.map((column) => ({
    ...column,
    filterable: fieldFor(column.type).filter !== 'none',
    orderable: fieldFor(column.type).orderable,
  }));
}

/**
 * A content type for tests as the server would describe it: derived members (title and search
 * columns, what each column allows) by the server's rules, the others filled in.
 */
export function typeOf(
  slug: string,
  columns: readonly ColumnDescriptor[],
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
    columns: published(columns),
    title_column: titleColumnOf(columns),
    search_columns: searchColumnsOf(columns),
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
    unusedMedia: vi.fn(async () => ({ count: 0, bytes: 0 })),
    apiDocument: vi.fn(unexpected),
    starters: vi.fn(unexpected),
    chooseStarters: vi.fn(unexpected),
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
