import { LazyScreen, lazyNamed } from '../components/lazy-screen.js';
import { i18n } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';
import { asBlocks, blocksFromRow, blocksToBody, type WidgetLookup } from './blocks-value.js';
import type { FieldCellProps, FieldInputProps, FieldWidget } from './field-types.js';

// The builder and its drag and drop load when a form first shows a blocks column, not with the editor.
const LazyBlocksInput = lazyNamed(() => import('./BlocksField.js'), 'BlocksInput', ['fields-blocks']);

function BlocksCell({ value }: FieldCellProps) {
  const t = useT('fields');
  const count = Array.isArray(value) ? value.length : 0;
  if (count === 0) return <span className="cell-empty">—</span>;
  return <span className="cell-text">{t('blocks.count', { count })}</span>;
}

/**
 * `blocks`: the block builder (BlocksField.tsx). The widgets of the blocks' own columns come from
 * `widgetFor`, the field registry's lookup, so a block's form is drawn like a row's and a blocks
 * column inside a block is this widget again.
 */
export function blocksFieldWith(widgetFor: WidgetLookup): FieldWidget {
  function BlocksInput(props: FieldInputProps) {
    const t = useT('fields');
    return (
      <LazyScreen label={t('blocks.loading')}>
        <LazyBlocksInput {...props} widgetFor={widgetFor} />
      </LazyScreen>
    );
  }
  return {
    typeName: () => i18n.t('fields:types.blocks'),
    Input: BlocksInput,
    Cell: BlocksCell,
    initial: () => [],
    fromRow: (value, column) => blocksFromRow(value, column, widgetFor),
    toBody: (value, column) => blocksToBody(asBlocks(value), column, widgetFor),
    editable: () => true,
    listable: false,
  };
}
