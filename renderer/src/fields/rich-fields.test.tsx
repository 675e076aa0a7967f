import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { ColumnDescriptor, UploadResponse } from '../../../common/api-contract.js';
import { parseNumberText } from '../../../common/number-syntax.js';
import { ApiError } from '../api/api-error.js';
import type { ApiClient, UploadOptions } from '../api/client.js';
import { FieldFrame } from '../components/field-frame.js';
import { listColumns } from '../components/list-columns.js';
import { fakeApi, listOf, rowOf, typeOf, WithApi } from '../test-support/fake-api.js';
import { booleanField } from './BooleanField.js';
import { widgetFor } from './field-registry.js';
import type { FormValue } from './field-types.js';
import { formatBytes, uploadProblem } from './image-upload.js';
import { numberField } from './NumberField.js';
import { numberToBody, stepNumberText } from './number-value.js';
import { relationField } from './RelationField.js';
import { tagsField } from './TagsField.js';
import { addTags, removeTagAt } from './tags-value.js';

const column = (partial: Partial<ColumnDescriptor> & Pick<ColumnDescriptor, 'name' | 'type'>): ColumnDescriptor => ({
  label: partial.name.charAt(0).toUpperCase() + partial.name.slice(1),
  required: false,
  ...partial,
});

/** A field whose value lives in state, as in the row form; every change is also reported to `spy`. */
function Field({
  descriptor,
  initial,
  spy,
}: {
  descriptor: ColumnDescriptor;
  initial: FormValue;
  spy(value: FormValue): void;
}) {
  const [value, setValue] = useState<FormValue>(initial);
  return (
    <FieldFrame
      column={descriptor}
      value={value}
      error={undefined}
      onChange={(next) => {
        setValue(next);
        spy(next);
      }}
    />
  );
}

function renderField(descriptor: ColumnDescriptor, initial: FormValue, api: ApiClient = fakeApi([])) {
  const spy = vi.fn();
  render(
    <WithApi api={api}>
      <Field descriptor={descriptor} initial={initial} spy={spy} />
    </WithApi>,
  );
  return spy;
}

describe('number fields', () => {
  it('read numbers the way the server does', () => {
    expect(parseNumberText(' 42 ')).toEqual({ kind: 'number', value: 42 });
    expect(parseNumberText('-3.5')).toEqual({ kind: 'number', value: -3.5 });
    expect(parseNumberText('.5')).toEqual({ kind: 'number', value: 0.5 });
    expect(parseNumberText('1e3')).toEqual({ kind: 'number', value: 1000 });
    expect(parseNumberText('')).toEqual({ kind: 'empty' });
    expect(parseNumberText('12 apples')).toEqual({ kind: 'invalid', text: '12 apples', reason: 'syntax' });
    expect(parseNumberText('1e999')).toEqual({ kind: 'invalid', text: '1e999', reason: 'not_finite' });
  });

  it('send a JSON number, null when empty, and unreadable text as it is for the server to name', () => {
    const position = column({ name: 'position', type: 'number' });
    expect(numberField.toBody('7', position)).toBe(7);
    expect(numberField.toBody('0.25', position)).toBe(0.25);
    expect(numberField.toBody('  ', position)).toBeNull();
    expect(numberToBody('seven')).toBe('seven');
    expect(numberField.fromRow(3.5, position)).toBe('3.5');
    expect(numberField.fromRow(null, position)).toBe('');
  });

  it('step with the arrow keys, keeping the decimals typed', () => {
    expect(stepNumberText('1.1', 1)).toBe('2.1');
    expect(stepNumberText('', -1)).toBe('-1');
    expect(stepNumberText('abc', 1)).toBe('abc');
    const spy = renderField(column({ name: 'position', type: 'number' }), '4');
    fireEvent.keyDown(screen.getByLabelText('Position'), { key: 'ArrowUp' });
    expect(spy).toHaveBeenLastCalledWith('5');
  });

  it('mark text that is not a number as invalid before saving', () => {
    renderField(column({ name: 'position', type: 'number' }), 'twelve');
    expect(screen.getByLabelText('Position').getAttribute('aria-invalid')).toBe('true');
  });
});

describe('boolean fields', () => {
  it('are a switch that reports true and false, and a new row starts off', async () => {
    const featured = column({ name: 'featured', type: 'boolean' });
    const spy = renderField(featured, booleanField.initial(featured, new Date()));
    const toggle = screen.getByRole('switch', { name: 'Featured' });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    await userEvent.click(toggle);
    expect(spy).toHaveBeenLastCalledWith(true);
    expect(booleanField.toBody(true, featured)).toBe(true);
    expect(booleanField.toBody(false, featured)).toBe(false);
    expect(booleanField.fromRow(null, featured)).toBe(false);
  });
});

describe('tags fields', () => {
  it('add typed and pasted tags trimmed, without empty ones or repeats', () => {
    expect(addTags(['a'], ' b , ,a,c\nd ')).toEqual(['a', 'b', 'c', 'd']);
    const same = ['a'];
    expect(addTags(same, 'a, ')).toBe(same);
    expect(removeTagAt(['a', 'b', 'c'], 1)).toEqual(['a', 'c']);
  });

  it('turn text into a tag on Enter or comma, drop repeats, and remove with Backspace or ×', async () => {
    const user = userEvent.setup();
    const spy = renderField(column({ name: 'tags', type: 'tags' }), ['local']);
    const input = screen.getByLabelText('Tags');
    await user.type(input, 'harbour{Enter}');
    expect(spy).toHaveBeenLastCalledWith(['local', 'harbour']);
    await user.type(input, 'events,');
    expect(spy).toHaveBeenLastCalledWith(['local', 'harbour', 'events']);
    spy.mockClear();
    await user.type(input, 'local{Enter}');
    expect(spy).not.toHaveBeenCalled();
    expect((input as HTMLInputElement).value).toBe('');
    await user.type(input, '{Backspace}');
    expect(spy).toHaveBeenLastCalledWith(['local', 'harbour']);
    await user.click(screen.getByRole('button', { name: 'Remove tag local' }));
    expect(spy).toHaveBeenLastCalledWith(['harbour']);
    expect(screen.getByText('Removed tag local')).toBeTruthy();
  });

  it('keep text typed but not yet added when the field is left', async () => {
    const spy = renderField(column({ name: 'tags', type: 'tags' }), []);
    const input = screen.getByLabelText('Tags');
    await userEvent.type(input, 'unfinished');
    fireEvent.blur(input);
    expect(spy).toHaveBeenLastCalledWith(['unfinished']);
  });

  it('send an array, and read anything else as no tags', () => {
    const tags = column({ name: 'tags', type: 'tags' });
    expect(tagsField.toBody(['a', 'b'], tags)).toEqual(['a', 'b']);
    expect(tagsField.toBody([], tags)).toEqual([]);
    expect(tagsField.fromRow(null, tags)).toEqual([]);
  });
});

const CATEGORIES = typeOf('categories', [
  { name: 'title', label: 'Title', type: 'text', required: true },
  { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' },
]);
const culture = rowOf({ id: 'c2', title: 'Culture', slug: 'culture' });
const sport = rowOf({ id: 'c3', title: 'Sport', slug: 'sport' });

describe('relation fields', () => {
  const category = column({ name: 'category', type: 'relation', target: 'categories' });

  it('search the target type by title and slug and report the picked row', async () => {
    const user = userEvent.setup();
    const listRows = vi.fn(async (_table: string, query: { filter?: string | string[] }) => {
      const search =
        [query.filter ?? []]
          .flat()
          .find((filter) => filter.startsWith('search='))
          ?.slice(7) ?? '';
      return listOf([culture, sport].filter((row) => String(row.title).toLowerCase().includes(search.toLowerCase())));
    });
    const spy = renderField(category, null, fakeApi([CATEGORIES], { listRows }));
    const input = await screen.findByRole('combobox', { name: 'Category' });
    await waitFor(() => expect((input as HTMLInputElement).disabled).toBe(false));
    await user.type(input, 'cul');
    const option = await screen.findByRole('option', { name: /Culture/ });
    expect(screen.queryByRole('option', { name: /Sport/ })).toBeNull();
    expect(listRows).toHaveBeenLastCalledWith(
      'categories',
      { filter: ['search=cul'], limit: 20, order: 'title', desc: false },
      expect.any(AbortSignal),
    );
    await user.click(option);
    expect(spy).toHaveBeenLastCalledWith({ id: 'c2', title: 'Culture', slug: 'culture' });
    expect((input as HTMLInputElement).value).toBe('Culture');
    expect(relationField.toBody({ id: 'c2', title: 'Culture', slug: 'culture' }, category)).toBe('c2');
  });

  it('pick with the arrow keys and Enter, and clear with the Clear button', async () => {
    const user = userEvent.setup();
    const listRows = vi.fn(async () => listOf([culture, sport]));
    const spy = renderField(
      category,
      { id: 'c2', title: 'Culture', slug: 'culture' },
      fakeApi([CATEGORIES], { listRows }),
    );
    const input = await screen.findByRole('combobox', { name: 'Category' });
    await waitFor(() => expect((input as HTMLInputElement).disabled).toBe(false));
    expect((input as HTMLInputElement).value).toBe('Culture');
    await user.click(input);
    await screen.findByRole('option', { name: /Sport/ });
    await user.keyboard('{ArrowDown}{Enter}');
    expect(spy).toHaveBeenLastCalledWith({ id: 'c3', title: 'Sport', slug: 'sport' });
    await user.click(screen.getByRole('button', { name: 'Clear Category' }));
    expect(spy).toHaveBeenLastCalledWith(null);
    expect(relationField.toBody(null, category)).toBeNull();
  });

  it('read a related row as its title, and a bare id as itself', () => {
    expect(relationField.fromRow({ id: 'c2', title: 'Culture', slug: 'culture' }, category)).toEqual({
      id: 'c2',
      title: 'Culture',
      slug: 'culture',
    });
    expect(relationField.fromRow('c9', category)).toEqual({ id: 'c9', title: null, slug: null });
    expect(relationField.fromRow(null, category)).toBeNull();
  });
});

describe('image fields', () => {
  const image = column({ name: 'image', type: 'image' });
  const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'harbour.png', { type: 'image/png' });

  it('upload a chosen file, show its progress, then preview the uploaded image', async () => {
    let finish: (answer: UploadResponse) => void = () => {};
    let progress: UploadOptions['onProgress'];
    const uploadFile = vi.fn((_file: Blob, options?: UploadOptions) => {
      progress = options?.onProgress;
      return new Promise<UploadResponse>((resolve) => {
        finish = resolve;
      });
    });
    const spy = renderField(image, '', fakeApi([], { uploadFile }));
    fireEvent.change(screen.getByLabelText('Image'), { target: { files: [png()] } });
    expect(uploadFile).toHaveBeenCalledWith(
      expect.any(File),
      expect.objectContaining({ signal: expect.any(AbortSignal) }),
    );
    act(() => progress?.(0.5));
    expect(screen.getByRole('status').textContent).toContain('Uploading “harbour.png”… 50%');
    const path = '/media/2025/03/01950000-0000-7000-8000-000000000000.png';
    await act(async () => finish({ path, type: 'image/png', size: 2048, width: 640, height: 400 }));
    expect(spy).toHaveBeenLastCalledWith(path);
    expect(screen.getByRole('img', { name: 'Image preview' }).getAttribute('src')).toBe(path);
    expect(screen.getByText('640 × 400 px · 2 KB')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('upload a file dropped on the field', async () => {
    const uploadFile = vi.fn(async () => ({ path: '/media/2025/03/x.png', type: 'image/png' as const, size: 4 }));
    const spy = renderField(image, '', fakeApi([], { uploadFile }));
    const zone = screen.getByText('PNG, JPEG, GIF, WebP, AVIF or SVG').closest('.image-field') as HTMLElement;
    const dataTransfer = { types: ['Files'], files: [png()], dropEffect: 'none' };
    fireEvent.dragOver(zone, { dataTransfer });
    await act(async () => {
      fireEvent.drop(zone, { dataTransfer });
    });
    expect(uploadFile).toHaveBeenCalledTimes(1);
    expect(spy).toHaveBeenLastCalledWith('/media/2025/03/x.png');
  });

  it('say what to do when the server refuses a file as too large (413) or not an image (415)', async () => {
    // The limit is read from the error's data, never from its sentence.
    const tooLarge = new ApiError(
      413,
      'payload_too_large',
      'The file is too large',
      {},
      [],
      {},
      {
        code: 'too_large',
        limit: 10485760,
      },
    );
    const uploadFile = vi.fn().mockRejectedValueOnce(tooLarge);
    const spy = renderField(image, '', fakeApi([], { uploadFile }));
    const big = new File([new Uint8Array(12 * 1024 * 1024)], 'huge.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText('Image'), { target: { files: [big] } });
    expect((await screen.findByRole('alert')).textContent).toBe(
      '“huge.png” is too large (12 MB). This server accepts images up to 10 MB.',
    );
    expect(spy).not.toHaveBeenCalled();
    const notImage = new ApiError(415, 'unsupported_media_type', 'Only PNG, JPEG, GIF, WebP, AVIF and SVG images...');
    expect(uploadProblem({ name: 'notes.txt', size: 10 }, notImage)).toBe(
      '“notes.txt” is not an image Quire can store. Choose a PNG, JPEG, GIF, WebP, AVIF or SVG file.',
    );
    expect(formatBytes(1536)).toBe('1.5 KB');
  });

  it('remove the current image with Remove', async () => {
    const spy = renderField(image, '/media/2025/03/01950000-0000-7000-8000-000000000000.png');
    expect(screen.getByRole('img', { name: 'Image preview' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Remove Image' }));
    expect(spy).toHaveBeenLastCalledWith('');
    expect(widgetFor(image).toBody('', image)).toBeNull();
    expect(screen.getByRole('button', { name: 'Choose file for Image' })).toBeTruthy();
  });
});

describe('the list', () => {
  it('shows the title, then status, images and relations before dates, tags and slugs, with images first', () => {
    const articles = [
      column({ name: 'title', type: 'text' }),
      column({ name: 'slug', type: 'slug', parent: 'title' }),
      column({ name: 'status', type: 'select', options: [{ id: 'draft', text: 'Draft' }] }),
      column({ name: 'published_at', type: 'datetime' }),
      column({ name: 'description', type: 'textarea' }),
      column({ name: 'body', type: 'markdown' }),
      column({ name: 'image', type: 'image' }),
      column({ name: 'tags', type: 'tags' }),
      column({ name: 'category', type: 'relation', target: 'categories' }),
    ];
    expect(listColumns(typeOf('articles', articles)).map((shown) => shown.name)).toEqual([
      'image',
      'title',
      'status',
      'published_at',
      'tags',
      'category',
    ]);
  });
});
