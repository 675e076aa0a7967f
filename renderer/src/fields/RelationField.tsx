import { type KeyboardEvent, useId, useRef, useState } from 'react';
import type { ContentRow, ContentTypeSummary, RelationValue } from '../../../common/api-contract.js';
import { describeError } from '../api/api-error.js';
import { IconCheck, IconChevronDown, IconClose, IconExternal } from '../components/icons.js';
import { useContentTypes } from '../hooks/content-types.js';
import { formatNumber } from '../i18n/formatters.js';
import { i18n } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';
import { useLinkProps } from '../routing/router.js';
import { EMPTY_LIST_STATE, routeHref } from '../routing/routes.js';
import { rowLabel } from '../schema/type-facts.js';
import type { FieldCellProps, FieldInputProps, FieldWidget } from './field-types.js';
import { relationFromListRow, relationFromRow, relationText, relationToBody } from './relation-value.js';
import { PICKER_LIMIT, useRelationSearch } from './use-relation-search.js';

/**
 * A searchable picker over the target type's rows (an ARIA combobox): the input shows the related
 * row's title; typing searches the target by title and slug; arrows, Enter and Escape work as in a
 * select. Clear empties it; the arrow link opens the related row.
 */
function RelationInput({ column, id, value, onChange, describedBy, invalid }: FieldInputProps) {
  const t = useT('fields');
  const { types } = useContentTypes();
  const target = types?.find((type) => type.slug === column.target);
  const current = relationFromRow(value);
  // null while not searching: the input then shows the current row's title.
  const [query, setQuery] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listId = useId();
  const input = useRef<HTMLInputElement>(null);
  const search = useRelationSearch(target, open ? (query ?? '') : null);
  const options = open && !search.loading ? search.rows : [];
  const openLink = useLinkProps(
    current && target ? routeHref({ name: 'row', type: target.table, id: current.id, list: EMPTY_LIST_STATE }) : '',
  );

  const close = () => {
    setOpen(false);
    setQuery(null);
  };
  const pick = (row: ContentRow) => {
    onChange(relationFromListRow(row));
    close();
  };
  const clear = () => {
    onChange(null);
    close();
    input.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) return setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((index) => (options.length === 0 ? 0 : (index + step + options.length) % options.length));
    } else if (event.key === 'Enter') {
      // Enter picks instead of submitting the form.
      event.preventDefault();
      if (open && options[active]) pick(options[active]);
      else setOpen(true);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      event.stopPropagation();
      close();
    }
  };

  const disabled = !target;
  const shown = query ?? (current ? relationText(current) : '');
  const activeId = open && options[active] ? `${listId}-${options[active].id}` : undefined;
  return (
    <div className="combo">
      <div className="input-group">
        <div className="combo-field">
          <input
            ref={input}
            id={id}
            name={column.name}
            type="text"
            role="combobox"
            className="input combo-input"
            value={shown}
            placeholder={
              target
                ? t('relation.search', { type: target.title.toLowerCase() })
                : t('relation.noType', { slug: column.target ?? '' })
            }
            disabled={disabled}
            aria-expanded={open}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={activeId}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            autoComplete="off"
            spellCheck={false}
            onFocus={(event) => {
              event.target.select();
              setActive(0);
              setOpen(true);
            }}
            onClick={() => setOpen(true)}
            onChange={(event) => {
              setQuery(event.target.value);
              setActive(0);
              setOpen(true);
            }}
            onBlur={() => {
              // Erasing the title and leaving the field clears the relation.
              if (query !== null && query.trim() === '' && current) onChange(null);
              close();
            }}
            onKeyDown={onKeyDown}
          />
          <IconChevronDown />
        </div>
        {current && target && (
          <a
            href={openLink.href}
            onClick={openLink.onClick}
            className="button button-ghost input-addon button-icon-only"
            aria-label={t('relation.open', { title: relationText(current) })}
            title={t('relation.openTitle', { type: target.title })}
          >
            <IconExternal />
          </a>
        )}
        {current && (
          <button
            type="button"
            className="button button-ghost input-addon button-icon-only"
            onClick={clear}
            aria-label={t('relation.clearLabel', { label: column.label })}
            title={t('relation.clear')}
          >
            <IconClose />
          </button>
        )}
      </div>
      {open && target && (
        <div className="combo-popup">
          <div
            id={listId}
            role="listbox"
            aria-label={t('relation.rows', { type: target.title })}
            className="combo-list"
          >
            {options.map((row, index) => (
              <PickerOption
                key={row.id}
                id={`${listId}-${row.id}`}
                label={rowLabel(target.title_column, row, row.id)}
                slug={slugOf(target, row)}
                active={index === active}
                selected={row.id === current?.id}
                onPick={() => pick(row)}
                onHover={() => setActive(index)}
              />
            ))}
          </div>
          <p className="combo-status" role="status">
            {search.loading
              ? t('relation.searching')
              : search.error
                ? describeError(search.error)
                : options.length === 0
                  ? query?.trim()
                    ? t('relation.noMatch', { type: target.title.toLowerCase(), query: query.trim() })
                    : t('relation.none', { type: target.title.toLowerCase() })
                  : search.filtered > PICKER_LIMIT
                    ? t('relation.more', { shown: formatNumber(PICKER_LIMIT), total: formatNumber(search.filtered) })
                    : ''}
          </p>
        </div>
      )}
    </div>
  );
}

function PickerOption(props: {
  id: string;
  label: string;
  slug: string | null;
  active: boolean;
  selected: boolean;
  onPick(): void;
  onHover(): void;
}) {
  return (
    // Options are picked with the mouse here and with the keyboard through the combobox input.
    // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keys (aria-activedescendant)
    <div
      id={props.id}
      role="option"
      tabIndex={-1}
      aria-selected={props.selected}
      className={`combo-option${props.active ? ' is-active' : ''}`}
      // Keeps focus in the input, so the pick happens before it blurs.
      onMouseDown={(event) => event.preventDefault()}
      onClick={props.onPick}
      onMouseMove={props.onHover}
    >
      <span className="combo-option-label">{props.label}</span>
      {props.slug && <span className="combo-option-slug">{props.slug}</span>}
      {props.selected && <IconCheck />}
    </div>
  );
}

function RelationCell({ value }: FieldCellProps) {
  const related: RelationValue | null = relationFromRow(value);
  if (!related) return <span className="cell-empty">—</span>;
  return <span className="cell-relation">{relationText(related)}</span>;
}

/** `relation`: one row of the `target` type, picked by search; the body gets its id (null clears). */
export const relationField: FieldWidget = {
  typeName: () => i18n.t('fields:types.relation'),
  Input: RelationInput,
  Cell: RelationCell,
  initial: () => null,
  fromRow: (value) => relationFromRow(value),
  toBody: (value) => relationToBody(value),
  editable: () => true,
  listable: true,
  listRank: 1,
  // The server orders by the stored id, which would look random next to the titles shown.
  sortable: false,
  compact: true,
};

/** A row's slug, from the first slug column of its type. */
function slugOf(type: ContentTypeSummary, row: ContentRow): string | null {
  const column = type.columns.find((candidate) => candidate.type === 'slug');
  const value = column ? row[column.name] : undefined;
  return typeof value === 'string' ? value : null;
}
