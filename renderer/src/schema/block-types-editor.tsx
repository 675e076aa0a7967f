import type { ReactNode } from 'react';
import { IconPlus, IconTrash } from '../components/icons.js';
import { IconButton } from '../components/ui/icon-button.js';
import { useT } from '../i18n/use-t.js';
// These styles come with the type editor's chunk, not with the editor's first load.
import '../styles/block-types-editor.css';
import type { FieldEditorProps } from './field-editor.js';
import { LabeledControl } from './labeled-control.js';
import {
  addField,
  type BlockTypeDraft,
  changeBlockType,
  changeField,
  moveField,
  newBlockType,
  newField,
  removeField,
} from './type-draft.js';

/** Props of a blocks field's block type editor. */
export interface BlockTypesEditorProps {
  /** DOM id prefix (the field editor's). */
  idPrefix: string;
  blocks: readonly BlockTypeDraft[];
  /** The types a relation inside a block may point at. */
  targets: readonly { slug: string; title: string }[];
  onChange(blocks: BlockTypeDraft[]): void;
  /** Draws one field of a block type: the type editor's own field editor, passed in so no module cycle forms. */
  renderField(props: FieldEditorProps & { key: string }): ReactNode;
}

/**
 * The block types of a blocks field: each a group with its label, its name (the `type` its blocks
 * carry) and its fields, edited with the same field editor as the type's own fields; block types
 * are added and removed here (a blocks field keeps at least one).
 */
export function BlockTypesEditor({ idPrefix, blocks, targets, onChange, renderField }: BlockTypesEditorProps) {
  const t = useT('schema');
  const change = (key: string, patch: Parameters<typeof changeBlockType>[2]) =>
    onChange(changeBlockType(blocks, key, patch));
  return (
    <div className="block-types">
      <h4 className="block-types-title">{t('blockTypes.title')}</h4>
      <ol className="block-type-list">
        {blocks.map((block, number) => {
          const id = `${idPrefix}-block-${block.key}`;
          const title = block.label.trim() || t('blockTypes.newType');
          const fields = { fields: block.fields };
          const setFields = (next: { fields: BlockTypeDraft['fields'] }) => change(block.key, { fields: next.fields });
          return (
            <li key={block.key}>
              <fieldset className="block-type-editor" aria-label={t('blockTypes.group', { number: number + 1, title })}>
                <div className="block-type-head">
                  <h5 className="block-type-title">{title}</h5>
                  <IconButton
                    tone="danger"
                    label={t('blockTypes.remove', { title })}
                    title={blocks.length === 1 ? t('blockTypes.lastType') : undefined}
                    onClick={() => onChange(blocks.filter((other) => other.key !== block.key))}
                    disabled={blocks.length === 1}
                  >
                    <IconTrash />
                  </IconButton>
                </div>
                <div className="field-editor-grid">
                  <LabeledControl id={`${id}-label`} label={t('blockTypes.label')}>
                    {(control) => (
                      <input
                        {...control}
                        className="input"
                        value={block.label}
                        onChange={(event) => change(block.key, { label: event.target.value })}
                        placeholder={t('blockTypes.labelPlaceholder')}
                        autoComplete="off"
                      />
                    )}
                  </LabeledControl>
                  <LabeledControl id={`${id}-name`} label={t('blockTypes.name')}>
                    {(control) => (
                      <input
                        {...control}
                        className="input input-mono"
                        value={block.name}
                        onChange={(event) => change(block.key, { name: event.target.value })}
                        placeholder={t('blockTypes.namePlaceholder')}
                        autoComplete="off"
                        spellCheck={false}
                      />
                    )}
                  </LabeledControl>
                </div>
                <ol className="field-list block-type-fields">
                  {block.fields.map((field, index) =>
                    renderField({
                      key: field.key,
                      field,
                      index,
                      count: block.fields.length,
                      errors: {},
                      others: block.fields.filter((other) => other.key !== field.key),
                      targets,
                      onChange: (patch) =>
                        setFields(
                          changeField(
                            fields,
                            field.key,
                            patch,
                            targets.map((target) => target.slug),
                          ),
                        ),
                      onMove: (delta) => setFields(moveField(fields, field.key, delta)),
                      onRemove: () => setFields(removeField(fields, field.key)),
                      markNew: false,
                    }),
                  )}
                </ol>
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => setFields(addField(fields, newField()))}
                >
                  <IconPlus />
                  {t('blockTypes.addField', { title })}
                </button>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <button type="button" className="button button-small" onClick={() => onChange([...blocks, newBlockType()])}>
        <IconPlus />
        {t('blockTypes.add')}
      </button>
    </div>
  );
}
