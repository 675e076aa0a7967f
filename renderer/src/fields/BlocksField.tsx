import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import * as Popover from '@radix-ui/react-popover';
import { type PointerEvent, useRef, useState } from 'react';
import type { BlockType } from '../../../common/api-contract.js';
import { blockTypeOf } from '../../../common/block-rules.js';
import { shownColumns } from '../../../common/field-conditions.js';
import { FieldFrameView } from '../components/field-frame-view.js';
import {
  IconArrowDown,
  IconArrowUp,
  IconChevronDown,
  IconDuplicate,
  IconGrip,
  IconPlus,
  IconTrash,
} from '../components/icons.js';
import { IconButton } from '../components/ui/icon-button.js';
import { useT } from '../i18n/use-t.js';
// The builder's styles come with its chunk, not with the editor's first load.
import '../styles/blocks-field.css';
import {
  asBlocks,
  type BlockForm,
  duplicateBlock,
  moveBlock,
  newBlock,
  type RemovedBlock,
  removeBlock,
  restoreBlock,
  type WidgetLookup,
} from './blocks-value.js';
import type { FieldInputProps, FormValue } from './field-types.js';
import { summarize } from './field-values.js';
import { problemsOf } from './problem-paths.js';

/** Props of the blocks builder: a field's input props and how to find the widgets of the blocks' columns. */
export interface BlocksInputProps extends FieldInputProps {
  widgetFor: WidgetLookup;
}

/** What a collapsed block shows after its type: the first of its fields that has text. */
function blockSummary(block: BlockForm, type: BlockType | undefined): string {
  for (const column of type?.columns ?? []) {
    const text = summarize(block.values[column.name]).trim();
    if (text !== '' && typeof block.values[column.name] !== 'boolean') return text.slice(0, 80);
  }
  return '';
}

/**
 * The builder of a `blocks` column: its blocks as cards, each with its type's label and a form of
 * its type's columns drawn with the same widgets as a row's form (a `blocks` column inside a block
 * is this builder again). Blocks are added from a menu of the column's block types, reordered by
 * dragging their handle, by the keyboard on the handle (Space, the arrows, Space), or with Move up
 * and Move down; duplicated; collapsed; and removed with an Undo next to the list.
 */
export function BlocksInput({
  column,
  id,
  value,
  onChange,
  describedBy,
  invalid,
  problems,
  widgetFor,
}: BlocksInputProps) {
  const t = useT('fields-blocks');
  const types: readonly BlockType[] = column.blocks ?? [];
  const blocks = asBlocks(value);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [removed, setRemoved] = useState<RemovedBlock | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [adding, setAdding] = useState(false);
  const undoButton = useRef<HTMLButtonElement>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const labelOf = (block: BlockForm) => blockTypeOf(column, block.type)?.label ?? block.type;
  const indexOf = (blockId: UniqueIdentifier) => blocks.findIndex((block) => block.id === blockId);
  const change = (next: BlockForm[]) => onChange(next);

  const add = (type: BlockType) => {
    setAdding(false);
    change([...blocks, newBlock(type, new Date(), widgetFor)]);
    setAnnouncement(t('added', { label: type.label }));
  };
  const move = (index: number, to: number) => {
    if (to < 0 || to >= blocks.length || to === index) return;
    change(moveBlock(blocks, index, to));
    setAnnouncement(t('moved', { label: labelOf(blocks[index]), position: to + 1, count: blocks.length }));
  };
  const duplicate = (index: number) => {
    change(duplicateBlock(blocks, index));
    setAnnouncement(t('duplicated', { label: labelOf(blocks[index]) }));
  };
  const remove = (index: number) => {
    const result = removeBlock(blocks, index);
    change(result.blocks);
    setRemoved(result.removed);
    setAnnouncement('');
    // The Undo button takes the focus the removed block's button had, so the keyboard stays in the list.
    requestAnimationFrame(() => undoButton.current?.focus());
  };
  const undo = () => {
    if (!removed) return;
    change(restoreBlock(blocks, removed));
    setAnnouncement(t('restored', { label: labelOf(removed.block) }));
    setRemoved(null);
  };
  const toggle = (blockId: string) => {
    const next = new Set(collapsed);
    if (next.has(blockId)) next.delete(blockId);
    else next.add(blockId);
    setCollapsed(next);
  };
  const changeValue = (index: number, name: string, next: FormValue) => {
    const block = blocks[index];
    change(blocks.map((item, at) => (at === index ? { ...block, values: { ...block.values, [name]: next } } : item)));
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    change(moveBlock(blocks, indexOf(active.id), indexOf(over.id)));
  };

  const position = (blockId: UniqueIdentifier) => ({
    label: blocks[indexOf(blockId)] ? labelOf(blocks[indexOf(blockId)]) : '',
    position: indexOf(blockId) + 1,
    count: blocks.length,
  });
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('dragStart', position(active.id)),
    onDragOver: ({ active, over }) =>
      over ? t('dragOver', { ...position(active.id), position: indexOf(over.id) + 1 }) : undefined,
    onDragEnd: ({ active, over }) =>
      over ? t('dragEnd', { ...position(active.id), position: indexOf(over.id) + 1 }) : undefined,
    onDragCancel: ({ active }) => t('dragCancel', position(active.id)),
  };

  return (
    <fieldset
      id={id}
      className="blocks-field"
      aria-label={column.label}
      aria-describedby={describedBy}
      data-invalid={invalid || undefined}
    >
      {blocks.length === 0 && <p className="blocks-empty">{t('empty')}</p>}
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={{ announcements, screenReaderInstructions: { draggable: t('instructions') } }}
      >
        <SortableContext items={blocks.map((block) => block.id)} strategy={verticalListSortingStrategy}>
          <ol className="blocks-list">
            {blocks.map((block, index) => {
              const at = problemsOf(problems, `[${index}]`);
              return (
                <BlockCard
                  key={block.id}
                  block={block}
                  type={blockTypeOf(column, block.type)}
                  index={index}
                  count={blocks.length}
                  idPrefix={`${id}-${block.id}`}
                  problem={at.own}
                  problems={at.inside}
                  open={!collapsed.has(block.id) || at.own !== undefined || Object.keys(at.inside).length > 0}
                  widgetFor={widgetFor}
                  onToggle={() => toggle(block.id)}
                  onMove={(to) => move(index, to)}
                  onDuplicate={() => duplicate(index)}
                  onRemove={() => remove(index)}
                  onChange={(name, next) => changeValue(index, name, next)}
                />
              );
            })}
          </ol>
        </SortableContext>
      </DndContext>
      <div className="blocks-footer">
        {types.length === 1 ? (
          <button type="button" className="button button-small" onClick={() => add(types[0])}>
            <IconPlus />
            {t('addType', { label: types[0].label })}
          </button>
        ) : (
          <Popover.Root open={adding} onOpenChange={setAdding}>
            <Popover.Trigger className="button button-small" aria-haspopup="true" disabled={types.length === 0}>
              <IconPlus />
              {t('add')}
              <IconChevronDown />
            </Popover.Trigger>
            <Popover.Portal>
              <Popover.Content className="ui-popover blocks-menu" align="start" sideOffset={4}>
                <ul aria-label={t('add')}>
                  {types.map((type) => (
                    <li key={type.name}>
                      <button type="button" className="ui-option blocks-menu-item" onClick={() => add(type)}>
                        {type.label}
                      </button>
                    </li>
                  ))}
                </ul>
              </Popover.Content>
            </Popover.Portal>
          </Popover.Root>
        )}
        {removed && (
          <p className="blocks-removed">
            <span>{t('removed', { label: labelOf(removed.block) })}</span>
            <button ref={undoButton} type="button" className="button button-small" onClick={undo}>
              {t('undo')}
            </button>
          </p>
        )}
      </div>
      <p className="visually-hidden" role="status" aria-live="polite">
        {removed ? t('removed', { label: labelOf(removed.block) }) : announcement}
      </p>
    </fieldset>
  );
}

interface BlockCardProps {
  block: BlockForm;
  type: BlockType | undefined;
  index: number;
  count: number;
  idPrefix: string;
  problem: string | undefined;
  problems: Readonly<Record<string, string>>;
  open: boolean;
  widgetFor: WidgetLookup;
  onToggle(): void;
  onMove(to: number): void;
  onDuplicate(): void;
  onRemove(): void;
  onChange(name: string, value: FormValue): void;
}

/** One block: a header with its handle, label, summary and actions, and its form when open. */
function BlockCard({
  block,
  type,
  index,
  count,
  idPrefix,
  problem,
  problems,
  open,
  widgetFor,
  onToggle,
  onMove,
  onDuplicate,
  onRemove,
  onChange,
}: BlockCardProps) {
  const t = useT('fields-blocks');
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: block.id,
  });
  const label = type?.label ?? block.type;
  // A field with a condition shows while it holds on this block's values, as on a row's form.
  const shown = shownColumns(type?.columns ?? [], (name) => block.values[name]);
  // Two dashes: a column name (an identifier) never starts with one, so no field id is the same.
  const bodyId = `${idPrefix}--fields`;
  // A read-only row disables its fieldset: the handle then neither drags nor picks up.
  const onPointerDown = (event: PointerEvent<HTMLElement>) => {
    if (!event.currentTarget.matches(':disabled')) listeners?.onPointerDown?.(event);
  };
  return (
    <li
      ref={setNodeRef}
      className={`block-card${isDragging ? ' block-dragging' : ''}`}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      aria-label={t('block', { label, position: index + 1, count })}
      data-block-type={block.type}
    >
      <div className="block-head">
        <IconButton
          ref={setActivatorNodeRef}
          className="block-handle"
          {...attributes}
          {...listeners}
          onPointerDown={onPointerDown}
          label={t('handle', { label, position: index + 1 })}
        >
          <IconGrip />
        </IconButton>
        <button
          type="button"
          className="block-toggle"
          aria-expanded={open}
          aria-controls={open ? bodyId : undefined}
          onClick={onToggle}
        >
          <span className="block-chevron">
            <IconChevronDown />
          </span>
          <span className="block-label">{label}</span>
          {!open && <span className="block-summary">{blockSummary(block, type)}</span>}
        </button>
        <div className="block-actions">
          <IconButton label={t('moveUp')} aria-disabled={index === 0 || undefined} onClick={() => onMove(index - 1)}>
            <IconArrowUp />
          </IconButton>
          <IconButton
            label={t('moveDown')}
            aria-disabled={index === count - 1 || undefined}
            onClick={() => onMove(index + 1)}
          >
            <IconArrowDown />
          </IconButton>
          <IconButton label={t('duplicate')} onClick={onDuplicate}>
            <IconDuplicate />
          </IconButton>
          <IconButton label={t('remove')} onClick={onRemove}>
            <IconTrash />
          </IconButton>
        </div>
      </div>
      {problem && <p className="field-error">{problem}</p>}
      {open && (
        <div id={bodyId} className="field-grid block-body">
          {type ? (
            type.columns
              .filter((column) => shown.has(column.name))
              .map((column) => {
                const at = problemsOf(problems, column.name);
                return (
                  <FieldFrameView
                    key={column.name}
                    widget={widgetFor(column)}
                    id={`${idPrefix}-${column.name}`}
                    column={column}
                    value={block.values[column.name]}
                    onChange={(next) => onChange(column.name, next)}
                    error={at.own}
                    problems={at.inside}
                  />
                );
              })
          ) : (
            <p className="field-hint">{t('unknownType', { type: block.type })}</p>
          )}
        </div>
      )}
    </li>
  );
}
