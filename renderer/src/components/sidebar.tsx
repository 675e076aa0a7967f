import { useEffect, useState } from 'react';
import type { ContentTypeSummary } from '../../../server/contract/api-contract.js';
import { useApi } from '../api/api-context.js';
import { useContentTypes } from '../hooks/content-types.js';
import { useLinkProps } from '../routing/router.js';
import { EMPTY_LIST_STATE, routeHref } from '../routing/routes.js';
import { IconCollection } from './icons.js';

const formatCount = new Intl.NumberFormat();

function TypeLink({ type, current, count }: { type: ContentTypeSummary; current: boolean; count: number | undefined }) {
  const link = useLinkProps(routeHref({ name: 'list', type: type.table, list: EMPTY_LIST_STATE }));
  return (
    <li>
      <a {...link} className="nav-link" aria-current={current ? 'page' : undefined}>
        <IconCollection />
        <span className="nav-link-text">{type.title}</span>
        {count !== undefined && (
          <span className="nav-count" aria-hidden="true">
            {formatCount.format(count)}
          </span>
        )}
      </a>
    </li>
  );
}

/** Row counts per type (`limit=0` asks only for `total`), refreshed whenever rows change. */
function useRowCounts(types: ContentTypeSummary[] | null): Record<string, number> {
  const api = useApi();
  const { dataVersion } = useContentTypes();
  const [counts, setCounts] = useState<Record<string, number>>({});
  useEffect(() => {
    void dataVersion;
    if (!types) return;
    const controller = new AbortController();
    for (const type of types) {
      api.listRows(type.table, { limit: 0 }, controller.signal).then(
        (list) => setCounts((all) => ({ ...all, [type.table]: list.total })),
        () => {},
      );
    }
    return () => controller.abort();
  }, [api, types, dataVersion]);
  return counts;
}

/** The content types (links named by their titles), the current one highlighted. */
export function Sidebar({ currentType }: { currentType: string | null }) {
  const { types } = useContentTypes();
  const counts = useRowCounts(types);
  const home = useLinkProps('/');
  return (
    <aside className="sidebar">
      <a {...home} className="brand">
        <img src="/favicon.svg" alt="" width={26} height={26} />
        <span className="brand-name">Quire</span>
      </a>
      <nav aria-label="Content types" className="nav">
        <h2 className="nav-heading">Content</h2>
        {types === null ? (
          <ul className="nav-list" aria-hidden="true">
            {[0, 1].map((n) => (
              <li key={n} className="nav-skeleton" />
            ))}
          </ul>
        ) : (
          <ul className="nav-list">
            {types.map((type) => (
              <TypeLink key={type.table} type={type} current={type.table === currentType} count={counts[type.table]} />
            ))}
          </ul>
        )}
      </nav>
      <div className="sidebar-footer">
        <span className="connection-dot" aria-hidden="true" />
        <span className="sidebar-footer-text" title={`${window.location.origin}/api`}>
          {window.location.host}
        </span>
      </div>
    </aside>
  );
}
