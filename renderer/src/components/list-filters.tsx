import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { ContentTypeSummary, PublishedColumn } from '../../../common/api-contract.js';
import { slugColumnOf } from '../../../common/title-rules.js';
import { useApi } from '../api/api-context.js';
import { useContentTypes } from '../hooks/content-types.js';
import { queryKeys } from '../hooks/row-queries.js';
import { useT } from '../i18n/use-t.js';
import {
  choicesOf,
  choicesValue,
  type FilterControl,
  filterControls,
  rangeKeys,
  relationValue,
} from '../schema/list-filters.js';
import { rowLabel, titleColumnOf } from '../schema/type-facts.js';
import { MultiSelect } from './ui/multi-select.js';
import { Select } from './ui/select.js';

/** Target rows a relation filter lists. */
const RELATION_CHOICES = 100;

type Filters = Readonly<Record<string, string>>;

interface ListFiltersProps {
  type: ContentTypeSummary;
  filters: Filters;
  /** The new filter state (only the keys that changed are different). */
  onChange(filters: Filters): void;
}

/** The list toolbar's filters: several statuses at once (a MultiSelect), yes/no, a date range, a related row. */
export function ListFilters({ type, filters, onChange }: ListFiltersProps) {
  const set = (changes: Filters) => onChange({ ...filters, ...changes });
  return (
    <>
      {filterControls(type).map((control) => (
        <FilterControlView key={control.column.name} control={control} filters={filters} set={set} />
      ))}
    </>
  );
}

function FilterControlView({
  control,
  filters,
  set,
}: {
  control: FilterControl;
  filters: Filters;
  set(changes: Filters): void;
}) {
  const t = useT('components');
  const { column } = control;
  const id = `filter-${column.name}`;
  const label = column.label ?? column.name;
  const value = filters[column.name] ?? '';
  switch (control.kind) {
    case 'choices':
      return (
        <LabelledFilter id={id} label={label}>
          {/* None ticked means all. */}
          <MultiSelect
            id={id}
            values={choicesOf(value)}
            options={(column.options ?? []).map((option) => ({ value: option.id, label: option.text }))}
            onChange={(chosen) => set({ [column.name]: choicesValue(chosen) })}
            emptyText={t('filters.all')}
            listLabel={label}
          />
        </LabelledFilter>
      );
    case 'boolean':
      return (
        <LabelledFilter id={id} label={label}>
          <Select
            id={id}
            value={value}
            options={[
              { value: '', label: t('filters.all') },
              { value: 'true', label: t('common:yes') },
              { value: 'false', label: t('common:no') },
            ]}
            onChange={(next) => set({ [column.name]: next })}
          />
        </LabelledFilter>
      );
    case 'range': {
      const keys = rangeKeys(column.name);
      return (
        <fieldset className="filter filter-range">
          <legend className="filter-label">{label}</legend>
          <input
            type="date"
            className="input"
            aria-label={t('filters.from', { label })}
            value={filters[keys.from] ?? ''}
            onChange={(event) => set({ [keys.from]: event.target.value })}
          />
          <span aria-hidden="true">–</span>
          <input
            type="date"
            className="input"
            aria-label={t('filters.to', { label })}
            value={filters[keys.to] ?? ''}
            onChange={(event) => set({ [keys.to]: event.target.value })}
          />
        </fieldset>
      );
    }
    case 'relation':
      return <RelationFilter id={id} label={label} column={column} value={value} set={set} />;
  }
}

/** A related row to filter by: the target type's rows (by title), sent by slug where the target has one. */
function RelationFilter(props: {
  id: string;
  label: string;
  column: PublishedColumn;
  value: string;
  set(changes: Filters): void;
}) {
  const { id, label, column, value, set } = props;
  const t = useT('components');
  const api = useApi();
  const target = useContentTypes().types?.find((type) => type.slug === column.target);
  const title = target && titleColumnOf(target);
  const query = {
    limit: RELATION_CHOICES,
    ...(title?.orderable ? { order: title.name, desc: false } : { order: 'created_at', desc: true }),
  };
  const { data } = useQuery({
    queryKey: queryKeys.pickerSearch(target?.table ?? '', query),
    queryFn: ({ signal }) => api.listRows(target?.table ?? '', query, signal),
    enabled: target !== undefined,
  });
  const slugColumn = target && slugColumnOf(target.columns);
  const choices = (data?.rows ?? []).map((row) => {
    const slug = slugColumn && row[slugColumn];
    return {
      value:
        typeof slug === 'string' && slugColumn ? relationValue({ slugColumn, slug }) : relationValue({ id: row.id }),
      label: rowLabel(target?.title_column ?? null, row, row.id),
    };
  });
  return (
    <LabelledFilter id={id} label={label}>
      <Select
        id={id}
        value={value}
        options={[
          { value: '', label: t('filters.all') },
          // Until the rows arrive, the value of a link still shows as chosen.
          ...(value !== '' && !choices.some((choice) => choice.value === value)
            ? [{ value, label: value.slice(value.indexOf(':') + 1) }]
            : []),
          ...choices,
        ]}
        onChange={(next) => set({ [column.name]: next })}
      />
    </LabelledFilter>
  );
}

/**
 * One filter's control under its label. The label is its own element (not wrapping the control), so
 * its text is exactly the column label.
 */
function LabelledFilter({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="filter">
      <label htmlFor={id} className="filter-label">
        {label}
      </label>
      {children}
    </div>
  );
}
