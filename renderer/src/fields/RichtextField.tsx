import { LazyScreen, lazyNamed } from '../components/lazy-screen.js';
import { i18n } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';
import type { FieldCellProps, FieldInputProps, FieldWidget } from './field-types.js';
import { asText } from './field-values.js';
import { richtextPlainText, richtextToBody } from './richtext-value.js';

// The editor framework is a chunk of its own: opening the editor does not load it, a form with a
// rich-text field does.
const RichtextEditor = lazyNamed(() => import('./richtext-editor.js'), 'RichtextEditor', ['fields-richtext']);

function RichtextInput(props: FieldInputProps) {
  const t = useT('fields');
  return (
    <LazyScreen label={t('richtext.loading')}>
      <RichtextEditor {...props} />
    </LazyScreen>
  );
}

/** A rich text in a list: its first words, without tags. */
function RichtextCell({ value }: FieldCellProps) {
  const text = richtextPlainText(value);
  if (text === '') return <span className="cell-empty">—</span>;
  return (
    <span className="cell-text" title={text.length > 60 ? text.slice(0, 500) : undefined}>
      {text.slice(0, 200)}
    </span>
  );
}

/** `richtext`: a body in HTML, written in a WYSIWYG editor with a toolbar. */
export const richtextField: FieldWidget = {
  typeName: () => i18n.t('fields:types.richtext'),
  Input: RichtextInput,
  Cell: RichtextCell,
  initial: () => '',
  fromRow: (value) => asText(value),
  toBody: (value) => richtextToBody(value),
  editable: () => true,
  listable: false,
};
