import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import { FieldFrame } from '../components/field-frame.js';
import { datetimeField } from './DatetimeField.js';
import { isKnownType, widgetFor } from './field-registry.js';
import type { FormValue } from './field-types.js';
import { selectField } from './SelectField.js';
import { slugField } from './SlugField.js';
import { textFallbackField, textField } from './TextField.js';

const column = (partial: Partial<ColumnDescriptor> & Pick<ColumnDescriptor, 'name' | 'type'>): ColumnDescriptor => ({
  label: partial.name,
  required: false,
  ...partial,
});

const future = (type: string) => type as ColumnDescriptor['type'];

function renderField(descriptor: ColumnDescriptor, value: FormValue, onChange = vi.fn()) {
  render(<FieldFrame column={descriptor} value={value} onChange={onChange} error={undefined} />);
  return onChange;
}

describe('the field registry', () => {
  it('has one widget per column type it knows, keyed by the type', () => {
    expect(widgetFor({ type: 'text' })).toBe(textField);
    expect(widgetFor({ type: 'slug' })).toBe(slugField);
    expect(widgetFor({ type: 'select' })).toBe(selectField);
    expect(widgetFor({ type: 'datetime' })).toBe(datetimeField);
  });

  it('falls back to a text input for a type it does not know', () => {
    expect(isKnownType('hologram')).toBe(false);
    expect(widgetFor({ type: future('hologram') })).toBe(textFallbackField);
    expect(widgetFor({ type: future('constructor') })).toBe(textFallbackField);
    renderField(column({ name: 'subtitle', label: 'Subtitle', type: future('hologram') }), 'hello');
    const input = screen.getByLabelText('Subtitle') as HTMLInputElement;
    expect(input.type).toBe('text');
    expect(input.value).toBe('hello');
    expect(input.readOnly).toBe(false);
  });

  it('shows a structured value of an unknown type read-only instead of mangling it', () => {
    renderField(column({ name: 'tags', label: 'Tags', type: future('hologram') }), ['local', 'sport']);
    const input = screen.getByLabelText('Tags') as HTMLInputElement;
    expect(input.readOnly).toBe(true);
    expect(input.value).toBe('local, sport');
  });
});

describe('field widgets', () => {
  it('label every input with exactly the column label and mark required ones outside the label', () => {
    renderField(column({ name: 'title', label: 'Title', type: 'text', required: true }), '');
    const input = screen.getByLabelText('Title') as HTMLInputElement;
    expect(input.required).toBe(true);
    expect(screen.getByText('Title').tagName).toBe('LABEL');
    expect(screen.getByTitle('Required').textContent).toBe('*');
  });

  it('offers the options of a select by their text and reports the option id', async () => {
    const onChange = renderField(
      column({
        name: 'status',
        label: 'Status',
        type: 'select',
        required: true,
        options: [
          { id: 'draft', text: 'Draft' },
          { id: 'published', text: 'Published' },
        ],
      }),
      'draft',
    );
    const user = userEvent.setup();
    const select = screen.getByLabelText('Status');
    expect(select.textContent).toBe('Draft');
    await user.click(select);
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Draft', 'Published']);
    await user.click(screen.getByRole('option', { name: 'Published' }));
    expect(onChange).toHaveBeenCalledWith('published');
  });

  it('edits a datetime in a datetime-local input with seconds and reports YYYY-MM-DD HH:MM:SS', () => {
    const onChange = renderField(
      column({ name: 'published_at', label: 'Published at', type: 'datetime' }),
      '2025-01-06 08:30:00',
    );
    const input = screen.getByLabelText('Published at') as HTMLInputElement;
    expect(input.type).toBe('datetime-local');
    expect(input.step).toBe('1');
    expect(input.value).toBe('2025-01-06T08:30');
    fireEvent.change(input, { target: { value: '2025-03-04T10:20:30' } });
    expect(onChange).toHaveBeenLastCalledWith('2025-03-04 10:20:30');
  });

  it('sets a datetime to now with the Now button', () => {
    const onChange = renderField(column({ name: 'published_at', label: 'Published at', type: 'datetime' }), '');
    fireEvent.click(screen.getByRole('button', { name: 'Set Published at to now' }));
    expect(onChange.mock.calls[0][0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('normalises a hand-typed slug the way the server will store it when the field is left', () => {
    const onChange = renderField(column({ name: 'slug', label: 'Slug', type: 'slug', parent: 'title' }), 'Hello World');
    fireEvent.blur(screen.getByLabelText('Slug'));
    expect(onChange).toHaveBeenCalledWith('hello-world');
  });
});
