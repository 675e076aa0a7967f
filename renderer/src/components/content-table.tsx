import type { MouseEvent } from 'react';
import type { ContentRow, PublishedColumn } from '../../../common/api-contract.js';
import type { ScheduledRow } from '../../../common/publishing-contract.js';
import { formatTimestamp, timeAgo } from '../fields/datetime-value.js';
import { widgetFor } from '../fields/field-registry.js';
import { summarize } from '../fields/field-values.js';
import { useT } from '../i18n/use-t.js';
import { useNavigate } from '../routing/router.js';
import type { SortState } from '../routing/routes.js';
import { IconSort } from './icons.js';
import { isSortable, listPlaces, UPDATED_COLUMN } from './list-columns.js';
import { ScheduleBadge } from './schedule-badge.js';

/** Props of the rows table. */
export interface ContentTableProps {
  caption: string;
  columns: PublishedColumn[];
  /** The column that names a row (the type's `title_column`): its cell links to the row. */
  titleColumn: string | null;
  rows: ContentRow[];
  sort: SortState;
  onSort(order: string): void;
  rowHref(id: string): string;
  busy: boolean;
}

function SortableHeader({
  name,
  label,
  sort,
  onSort,
  sortable = true,
  className,
}: {
  name: string;
  label: string;
  sort: SortState;
  onSort(order: string): void;
  sortable?: boolean;
  className?: string;
}) {
  const direction = sort?.order === name ? (sort.desc ? 'desc' : 'asc') : null;
  const ariaSort = direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined;
  const classes = [className, direction ? 'is-sorted' : null].filter(Boolean).join(' ') || undefined;
  if (!sortable) {
    return (
      <th scope="col" className={classes}>
        <span className="th-label">{label}</span>
      </th>
    );
  }
  return (
    <th scope="col" aria-sort={ariaSort} className={classes}>
      <button type="button" className="th-button" onClick={() => onSort(name)}>
        {label}
        <IconSort direction={direction} />
      </button>
    </th>
  );
}

/**
 * The rows of a type as a table: a column per listable content column plus "Updated", sortable
 * headers, the title cell a link to the row (the whole row is clickable too). Each column carries
 * its place (`col-place-<n>`), so a narrow list drops the low-ranked ones first.
 */
export function ContentTable({ caption, columns, titleColumn, rows, sort, onSort, rowHref, busy }: ContentTableProps) {
  const navigate = useNavigate();
  const t = useT('components');
  // Thumbnails lead the row, but the link is on the row's title (or its first other column).
  const linkColumn = columns.some((column) => column.name === titleColumn)
    ? titleColumn
    : (columns.find((column) => column.type !== 'image') ?? columns[0])?.name;
  const openRow = (event: MouseEvent, href: string) => {
    const target = event.target as HTMLElement;
    if (target.closest('a, button, input, select') || window.getSelection()?.toString()) return;
    navigate(href);
  };
  const now = new Date();
  // A narrow list keeps the first places: the link column, then the best-ranked ones.
  const places = listPlaces(columns, linkColumn);
  const placeClass = (name: string) => `col-place-${places.get(name)}`;
  // A row's pending scheduled change is shown beside its status (else beside its title).
  const scheduleColumn = columns.some((column) => column.name === 'status') ? 'status' : linkColumn;
  return (
    <div className={busy ? 'table-wrap is-busy' : 'table-wrap'}>
      <table className="table" aria-busy={busy || undefined}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <SortableHeader
                key={column.name}
                name={column.name}
                label={column.label}
                sort={sort}
                onSort={onSort}
                sortable={isSortable(column)}
                className={`col-${column.type}${column.name === linkColumn ? ' col-primary' : ''} ${placeClass(column.name)}`}
              />
            ))}
            <SortableHeader
              name={UPDATED_COLUMN.name}
              label={t('table.updated')}
              sort={sort}
              onSort={onSort}
              className={`col-updated ${placeClass(UPDATED_COLUMN.name)}`}
            />
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const href = rowHref(row.id);
            return (
              <tr key={row.id} onClick={(event) => openRow(event, href)} className="table-row">
                {columns.map((column) => {
                  const Cell = widgetFor(column).Cell;
                  return (
                    <td
                      key={column.name}
                      className={`col col-${column.type}${column.name === linkColumn ? ' col-primary' : ''} ${placeClass(column.name)}`}
                    >
                      {column.name === linkColumn ? (
                        <a
                          href={href}
                          className="row-link"
                          onClick={(event) => {
                            if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
                            event.preventDefault();
                            navigate(href);
                          }}
                        >
                          {summarize(row[column.name]) || t('seo.untitled')}
                        </a>
                      ) : (
                        <Cell column={column} value={row[column.name]} />
                      )}
                      {column.name === scheduleColumn && (
                        <ScheduleBadge schedule={(row as Partial<ScheduledRow>).schedule} />
                      )}
                    </td>
                  );
                })}
                <td className={`col col-updated ${placeClass(UPDATED_COLUMN.name)}`}>
                  <time
                    dateTime={`${row.updated_at.replace(' ', 'T').slice(0, 19)}Z`}
                    title={formatTimestamp(row.updated_at)}
                  >
                    {timeAgo(row.updated_at, now)}
                  </time>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
