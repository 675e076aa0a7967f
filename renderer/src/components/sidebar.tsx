import type { ContentTypeSummary } from '../../../common/api-contract.js';
import { useContentTypes } from '../hooks/content-types.js';
import { useRowCounts } from '../hooks/use-row-counts.js';
import { useLinkProps } from '../routing/router.js';
import { EMPTY_LIST_STATE, routeHref } from '../routing/routes.js';
import { IconCollection, IconLayers } from './icons.js';

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

/** The content types (links named by their titles), the current one highlighted; then the settings. */
export function Sidebar({ currentType, inSchema }: { currentType: string | null; inSchema: boolean }) {
  const { types } = useContentTypes();
  const counts = useRowCounts(types);
  const home = useLinkProps('/');
  const schema = useLinkProps(routeHref({ name: 'content-types' }));
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
      <nav aria-label="Settings" className="nav nav-settings">
        <h2 className="nav-heading">Settings</h2>
        <ul className="nav-list">
          <li>
            <a {...schema} className="nav-link" aria-current={inSchema ? 'page' : undefined}>
              <IconLayers />
              <span className="nav-link-text">Content types</span>
            </a>
          </li>
        </ul>
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
