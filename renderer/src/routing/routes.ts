/** Rows per page unless the URL says otherwise. */
export const DEFAULT_PAGE_SIZE = 50;
/** Page sizes the list offers. */
export const PAGE_SIZES = [25, 50, 100, 200] as const;

/** Sorting of the list: a field and a direction; null = newest first. */
export type SortState = { order: string; desc: boolean } | null;

/** Where the list is: search, page, filters and sort. Kept in the URL so reload and back work. */
export interface ListState {
  search: string;
  /** 1-based. */
  page: number;
  pageSize: number;
  /** Equality filters by column name (select columns). */
  filters: Readonly<Record<string, string>>;
  sort: SortState;
}

/** A screen of the editor, parsed from the URL. */
export type Route =
  | { name: 'home' }
  | { name: 'list'; type: string; list: ListState }
  | { name: 'create'; type: string; list: ListState }
  | { name: 'row'; type: string; id: string; list: ListState }
  /** A type's recently deleted rows (`list`: where its Back link returns). */
  | { name: 'trash'; type: string; list: ListState }
  | { name: 'content-types' }
  /** Accounts and API tokens (admins), or the first-run form. */
  | { name: 'accounts' }
  /** The API reference, from the server's OpenAPI document. */
  | { name: 'api' }
  /** Build hooks and their delivery logs (admins). */
  | { name: 'hooks' }
  /** One's own two-factor sign-in (any signed-in account). */
  | { name: 'security' }
  /** The audit log of security events (admins). */
  | { name: 'audit' }
  /** The media library: every upload, described and reused. */
  | { name: 'media' }
  /** The site's languages and their fallback chains (admins change them, everyone reads them). */
  | { name: 'languages' }
  /** A content type's schema; `slug` null for a new type. */
  | { name: 'content-type'; slug: string | null }
  | { name: 'unknown'; path: string };

/** Where the content-type screens live; no row route has a second segment other than `new` or `rows`. */
const SCHEMA_PATH = ['settings', 'content-types'] as const;

/** Where the accounts screen lives. */
const ACCOUNTS_PATH = ['settings', 'accounts'] as const;

/** Where the API reference lives. */
const API_PATH = ['settings', 'api'] as const;

/** Where the build hooks live. */
const HOOKS_PATH = ['settings', 'hooks'] as const;

/** Where one's own security settings live. */
const SECURITY_PATH = ['settings', 'security'] as const;

/** Where the audit log lives. */
const AUDIT_PATH = ['settings', 'audit'] as const;

/** Where the media library lives (`/media` itself is where the server serves the files). */
const MEDIA_PATH = ['settings', 'media'] as const;

/** Where the site's languages live. */
const LANGUAGES_PATH = ['settings', 'languages'] as const;

/** The list state of a fresh visit. */
export const EMPTY_LIST_STATE: ListState = {
  search: '',
  page: 1,
  pageSize: DEFAULT_PAGE_SIZE,
  filters: {},
  sort: null,
};

const FILTER_PREFIX = 'f.';

/**
 * Parses a location. Paths: `/` (home), `/:type` (list), `/:type/new` (new row), `/:type/rows/:id`
 * (a row; the fixed `rows` segment keeps a row whose id is `new` reachable), and the content-type
 * screens `/settings/content-types` (all types), `.../new` and `.../edit/:slug`. The query holds the list
 * state: `q`, `page`, `size`, `order`, `desc`, and `f.<column>` filters.
 */
export function parseLocation(pathname: string, search: string): Route {
  const segments = pathname.split('/').filter((segment) => segment !== '');
  const decoded = segments.map(safeDecode);
  if (decoded.some((segment) => segment === null)) return { name: 'unknown', path: pathname };
  const [type, second, third, ...rest] = decoded as string[];
  const list = parseListState(search);
  if (segments.length === 0) return { name: 'home' };
  if (decoded.length === 2 && decoded[0] === ACCOUNTS_PATH[0] && decoded[1] === ACCOUNTS_PATH[1]) {
    return { name: 'accounts' };
  }
  if (decoded.length === 2 && decoded[0] === API_PATH[0] && decoded[1] === API_PATH[1]) return { name: 'api' };
  if (decoded.length === 2 && decoded[0] === HOOKS_PATH[0] && decoded[1] === HOOKS_PATH[1]) return { name: 'hooks' };
  if (decoded.length === 2 && decoded[0] === SECURITY_PATH[0] && decoded[1] === SECURITY_PATH[1]) {
    return { name: 'security' };
  }
  if (decoded.length === 2 && decoded[0] === AUDIT_PATH[0] && decoded[1] === AUDIT_PATH[1]) return { name: 'audit' };
  if (decoded.length === 2 && decoded[0] === MEDIA_PATH[0] && decoded[1] === MEDIA_PATH[1]) return { name: 'media' };
  if (decoded.length === 2 && decoded[0] === LANGUAGES_PATH[0] && decoded[1] === LANGUAGES_PATH[1]) {
    return { name: 'languages' };
  }
  if (decoded[0] === SCHEMA_PATH[0] && decoded[1] === SCHEMA_PATH[1]) {
    const [, , action, slug, ...more] = decoded as string[];
    if (action === undefined) return { name: 'content-types' };
    if (action === 'new' && slug === undefined) return { name: 'content-type', slug: null };
    if (action === 'edit' && slug !== undefined && more.length === 0) return { name: 'content-type', slug };
    return { name: 'unknown', path: pathname };
  }
  if (segments.length === 1) return { name: 'list', type, list };
  if (segments.length === 2 && second === 'new') return { name: 'create', type, list };
  if (segments.length === 2 && second === 'trash') return { name: 'trash', type, list };
  if (segments.length === 3 && second === 'rows' && rest.length === 0) return { name: 'row', type, id: third, list };
  return { name: 'unknown', path: pathname };
}

/** The URL of a route (path plus the list state as a query). */
export function routeHref(route: Route): string {
  switch (route.name) {
    case 'home':
      return '/';
    case 'unknown':
      return route.path;
    case 'list':
      return `/${encodeURIComponent(route.type)}${listQuery(route.list)}`;
    case 'create':
      return `/${encodeURIComponent(route.type)}/new${listQuery(route.list)}`;
    case 'row':
      return `/${encodeURIComponent(route.type)}/rows/${encodeURIComponent(route.id)}${listQuery(route.list)}`;
    case 'trash':
      return `/${encodeURIComponent(route.type)}/trash${listQuery(route.list)}`;
    case 'content-types':
      return `/${SCHEMA_PATH.join('/')}`;
    case 'accounts':
      return `/${ACCOUNTS_PATH.join('/')}`;
    case 'api':
      return `/${API_PATH.join('/')}`;
    case 'security':
      return `/${SECURITY_PATH.join('/')}`;
    case 'hooks':
      return `/${HOOKS_PATH.join('/')}`;
    case 'audit':
      return `/${AUDIT_PATH.join('/')}`;
    case 'media':
      return `/${MEDIA_PATH.join('/')}`;
    case 'languages':
      return `/${LANGUAGES_PATH.join('/')}`;
    case 'content-type':
      return route.slug === null
        ? `/${SCHEMA_PATH.join('/')}/new`
        : `/${SCHEMA_PATH.join('/')}/edit/${encodeURIComponent(route.slug)}`;
  }
}

/** Reads the list state from a query string; anything malformed falls back to the default. */
export function parseListState(search: string): ListState {
  const params = new URLSearchParams(search);
  const filters: Record<string, string> = {};
  for (const [key, value] of params) {
    if (key.startsWith(FILTER_PREFIX) && key.length > FILTER_PREFIX.length && value !== '') {
      filters[key.slice(FILTER_PREFIX.length)] = value;
    }
  }
  const order = params.get('order');
  const size = wholeNumber(params.get('size'));
  return {
    search: params.get('q') ?? '',
    page: Math.max(1, wholeNumber(params.get('page')) ?? 1),
    pageSize: size !== null && (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
    filters,
    sort: order ? { order, desc: params.get('desc') === '1' || params.get('desc') === 'true' } : null,
  };
}

/** The query string of a list state, leaving defaults out so URLs stay short. */
export function listQuery(list: ListState): string {
  const params = new URLSearchParams();
  if (list.search !== '') params.set('q', list.search);
  for (const [name, value] of Object.entries(list.filters)) {
    if (value !== '') params.set(`${FILTER_PREFIX}${name}`, value);
  }
  if (list.sort) {
    params.set('order', list.sort.order);
    if (list.sort.desc) params.set('desc', '1');
  }
  if (list.pageSize !== DEFAULT_PAGE_SIZE) params.set('size', String(list.pageSize));
  if (list.page > 1) params.set('page', String(list.page));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

function wholeNumber(text: string | null): number | null {
  if (text === null || !/^\d{1,9}$/.test(text)) return null;
  return Number(text);
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
