import { widgetFor } from '../fields/field-registry.js';
import { type FieldFrameProps, FieldFrameView } from './field-frame-view.js';

export { type FieldFrameProps, fieldId } from './field-frame-view.js';

/** One field of the row form, drawn with its column type's widget from the registry. */
export function FieldFrame(props: FieldFrameProps) {
  return <FieldFrameView {...props} widget={widgetFor(props.column)} />;
}
