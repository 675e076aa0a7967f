import type { ColumnType } from '../../../common/api-contract.js';
import { typeChangeAllowed } from '../../../common/column-type-changes.js';
import { conditionTargets } from '../../../common/field-conditions.js';
import { LOCALIZABLE_COLUMN_TYPES } from '../../../common/locale-rules.js';
import { IconArrowDown, IconArrowUp, IconTrash } from '../components/icons.js';
import { IconButton } from '../components/ui/icon-button.js';
import { Select } from '../components/ui/select.js';
import { columnTypeChoices, widgetFor } from '../fields/field-registry.js';
import { useT } from '../i18n/use-t.js';
import { BlockTypesEditor } from './block-types-editor.js';
import { ConditionEditor } from './condition-editor.js';
import { LabeledControl } from './labeled-control.js';
import { OptionsEditor } from './options-editor.js';
import type { FieldDraft, FieldPatch } from './type-draft.js';
import { asSentence, type FieldPart } from './type-errors.js';

/** Props of one field's editor. */
export interface FieldEditorProps {
  field: FieldDraft;
  index: number;
  count: number;
  errors: Partial<Record<FieldPart | 'general', string>>;
  /** The other fields (a slug's possible sources, the fields a condition may name). */
  others: readonly FieldDraft[];
  /** The types a relation may point at. */
  targets: readonly { slug: string; title: string }[];
  onChange(patch: FieldPatch, part: FieldPart): void;
  onMove(delta: -1 | 1): void;
  onRemove(): void;
  /** Whether fields added in this edit get a "New" mark (not on a type that is new as a whole). */
  markNew: boolean;
  /** A field of a block type: slugs are not offered there (a block has no address of its own). */
  insideBlock?: boolean;
}

/** The DOM id prefix of a field editor's controls. */
export const fieldEditorId = (key: string) => `schema-field-${key}`;

/**
 * One field of the type: label, name (a rename keeps the data), type, required, and what its type
 * needs (options, slug source, relation target), when it is shown; move and remove buttons. A group
 * named by the label.
 */
export function FieldEditor({
  field,
  index,
  count,
  errors,
  others,
  targets,
  onChange,
  onMove,
  onRemove,
  markNew,
  insideBlock = false,
}: FieldEditorProps) {
  const id = fieldEditorId(field.key);
  const saved = field.original;
  // A saved field offers only the types the server lets it change to.
  const choices = columnTypeChoices().filter(
    (choice) => (!saved || typeChangeAllowed(saved.type, choice.type)) && !(insideBlock && choice.type === 'slug'),
  );
  const t = useT('schema');
  const renamed = saved && saved.name !== field.name;
  const title = field.label.trim() || t('field.newField');
  return (
    <li className="field-card">
      {/* Named "Field 3: Body", not "Body": the page's own inputs are labelled Title and Slug too. */}
      <fieldset
        aria-label={t('field.group', { number: index + 1, title })}
        className="field-editor"
        data-field-key={field.key}
      >
        <div className="field-editor-head">
          <span className="field-index" aria-hidden="true">
            {index + 1}
          </span>
          <h3 className="field-editor-title">{title}</h3>
          <span className="type-chip">{widgetFor(field).typeName()}</span>
          {!saved && markNew && <span className="chip chip-new">{t('field.new')}</span>}
          <div className="field-editor-actions">
            <IconButton id={`${id}-up`} label={t('field.moveUp')} onClick={() => onMove(-1)} disabled={index === 0}>
              <IconArrowUp />
            </IconButton>
            <IconButton
              id={`${id}-down`}
              label={t('field.moveDown')}
              onClick={() => onMove(1)}
              disabled={index === count - 1}
            >
              <IconArrowDown />
            </IconButton>
            <IconButton
              tone="danger"
              label={t('field.remove')}
              title={count === 1 ? t('field.lastField') : t('field.removeThis')}
              onClick={onRemove}
              disabled={count === 1}
            >
              <IconTrash />
            </IconButton>
          </div>
        </div>
        <div className="field-editor-grid">
          <LabeledControl id={`${id}-label`} label={t('field.label')} error={errors.label}>
            {(control) => (
              <input
                {...control}
                className="input"
                value={field.label}
                onChange={(event) => onChange({ label: event.target.value }, 'label')}
                placeholder={t('field.labelPlaceholder')}
                autoComplete="off"
              />
            )}
          </LabeledControl>
          <LabeledControl
            id={`${id}-name`}
            label={t('field.name')}
            error={errors.name}
            hint={renamed ? t('field.renamed', { name: saved.name }) : undefined}
          >
            {(control) => (
              <input
                {...control}
                className="input input-mono"
                value={field.name}
                onChange={(event) => onChange({ name: event.target.value }, 'name')}
                placeholder={t('field.namePlaceholder')}
                autoComplete="off"
                spellCheck={false}
              />
            )}
          </LabeledControl>
          <LabeledControl id={`${id}-type`} label={t('field.type')} error={errors.type}>
            {(control) => (
              <Select
                {...control}
                value={field.type}
                disabled={choices.length === 1}
                title={choices.length === 1 ? t('field.keepsType') : undefined}
                options={choices.map((choice) => ({ value: choice.type, label: choice.name }))}
                onChange={(type) => onChange({ type: type as ColumnType }, 'type')}
              />
            )}
          </LabeledControl>
        </div>
        <div className="field-editor-extra">
          <label className="checkbox" htmlFor={`${id}-required`}>
            <input
              id={`${id}-required`}
              type="checkbox"
              checked={field.required}
              onChange={(event) => onChange({ required: event.target.checked }, 'required')}
              aria-invalid={errors.required ? true : undefined}
            />
            {t('field.required')}
          </label>
          {LOCALIZABLE_COLUMN_TYPES.has(field.type) && !insideBlock && (
            <label className="checkbox" htmlFor={`${id}-localized`}>
              <input
                id={`${id}-localized`}
                type="checkbox"
                checked={field.localized}
                onChange={(event) => onChange({ localized: event.target.checked }, 'localized')}
                aria-invalid={errors.localized ? true : undefined}
                aria-describedby={saved?.localized && !field.localized ? `${id}-unlocalized` : undefined}
              />
              {t('field.translatable')}
            </label>
          )}
          {field.type === 'slug' && (
            <LabeledControl
              id={`${id}-parent`}
              label={t('field.madeFrom')}
              error={errors.parent}
              className="field-inline"
            >
              {(control) => (
                <Select
                  {...control}
                  size="small"
                  value={field.parent}
                  options={[
                    { value: '', label: t('field.chooseField') },
                    ...others
                      .filter((other) => other.type !== 'slug' && other.name !== '')
                      .map((other) => ({ value: other.name, label: other.label.trim() || other.name })),
                  ]}
                  onChange={(parent) => onChange({ parent }, 'parent')}
                />
              )}
            </LabeledControl>
          )}
          {field.type === 'relation' && (
            <LabeledControl
              id={`${id}-target`}
              label={t('field.pointsTo')}
              error={errors.target}
              className="field-inline"
            >
              {(control) => (
                <Select
                  {...control}
                  size="small"
                  value={field.target}
                  options={[
                    ...(field.target === '' ? [{ value: '', label: t('field.chooseType') }] : []),
                    ...targets.map((target) => ({ value: target.slug, label: target.title })),
                  ]}
                  onChange={(target) => onChange({ target }, 'target')}
                />
              )}
            </LabeledControl>
          )}
        </div>
        {saved?.localized && !field.localized && (
          <p id={`${id}-unlocalized`} className="field-hint" role="status">
            {t('field.untranslated')}
          </p>
        )}
        {errors.localized && (
          <p className="field-error field-editor-error" role="alert">
            {asSentence(errors.localized)}
          </p>
        )}
        {field.type === 'select' && (
          <OptionsEditor
            idPrefix={id}
            options={field.options}
            error={errors.options}
            onChange={(options) => onChange({ options }, 'options')}
          />
        )}
        {field.type === 'blocks' && (
          <BlockTypesEditor
            idPrefix={id}
            blocks={field.blocks}
            targets={targets}
            onChange={(blocks) => onChange({ blocks }, 'blocks')}
            renderField={({ key, ...props }) => <FieldEditor key={key} {...props} insideBlock />}
          />
        )}
        {errors.blocks && (
          <p className="field-error field-editor-error" role="alert">
            {asSentence(errors.blocks)}
          </p>
        )}
        <ConditionEditor
          idPrefix={id}
          when={field.when}
          targets={conditionTargets(field, [field, ...others])}
          error={errors.when}
          onChange={(when) => onChange({ when }, 'when')}
        />
        {errors.general && (
          <p className="field-error field-editor-error" role="alert">
            {asSentence(errors.general)}
          </p>
        )}
      </fieldset>
    </li>
  );
}
