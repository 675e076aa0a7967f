import { useMemo } from 'react';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import { FieldFrame } from '../components/field-frame.js';
import { IconEye } from '../components/icons.js';
import { widgetFor } from '../fields/field-registry.js';
import { i18n } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';
import { columnOf, type FieldDraft } from './type-draft.js';

const noChange = () => {};

/** The columns the preview draws: unnamed fields get a stand-in name, unlabelled ones a stand-in label. */
function previewColumns(fields: readonly FieldDraft[]): ColumnDescriptor[] {
  return fields.map((field) => {
    const column = columnOf(field);
    return {
      ...column,
      name: `${field.key}-${column.name}`,
      label: column.label || i18n.t('schema:preview.untitledField'),
      parent: column.parent
        ? `${fields.find((other) => other.name === column.parent)?.key}-${column.parent}`
        : undefined,
      options: column.options?.filter((option) => option.id !== '' || option.text !== ''),
    };
  });
}

/**
 * The row form as the draft would make it: the real field widgets, drawn from the draft's columns
 * as they are edited. A picture, not a form: inert and hidden from assistive technology (its labels
 * would repeat the editor's own), with a sentence saying so.
 */
export function FormPreview({ fields }: { fields: readonly FieldDraft[] }) {
  const columns = useMemo(() => previewColumns(fields), [fields]);
  const now = useMemo(() => new Date(), []);
  const t = useT('schema');
  return (
    <section className="card form-preview" aria-labelledby="form-preview-heading">
      <header className="form-preview-header">
        <h2 id="form-preview-heading" className="card-title">
          <IconEye /> {t('preview.title')}
        </h2>
        <p className="card-subtitle">{t('preview.subtitle')}</p>
      </header>
      <p className="visually-hidden">{t('preview.note', { count: columns.length })}</p>
      <div className="field-grid form-preview-fields" inert aria-hidden="true">
        {columns.map((column) => (
          <FieldFrame
            key={column.name}
            column={column}
            value={widgetFor(column).initial(column, now)}
            onChange={noChange}
            error={undefined}
            preview
          />
        ))}
      </div>
    </section>
  );
}
