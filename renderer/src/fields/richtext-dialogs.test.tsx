import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { UploadResponse } from '../../../common/api-contract.js';
import { ApiError } from '../api/api-error.js';
import type { UploadOptions } from '../api/client.js';
import { fakeApi, WithApi } from '../test-support/fake-api.js';
import { ImageDialog } from './richtext-dialogs.js';

const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'harbour.png', { type: 'image/png' });

function renderDialog(uploadFile: (file: Blob, options?: UploadOptions) => Promise<UploadResponse>) {
  const onInsert = vi.fn();
  const view = render(
    <WithApi api={fakeApi([], { uploadFile })}>
      <ImageDialog onInsert={onInsert} onCancel={() => {}} />
    </WithApi>,
  );
  return { ...view, onInsert };
}

describe("the rich-text editor's image dialog", () => {
  it('upload the chosen file, then insert it with its alternative text', async () => {
    let finish: (answer: UploadResponse) => void = () => {};
    const uploadFile = vi.fn(
      () =>
        new Promise<UploadResponse>((resolve) => {
          finish = resolve;
        }),
    );
    const { onInsert } = renderDialog(uploadFile);
    fireEvent.change(await screen.findByLabelText('Image file'), { target: { files: [png()] } });
    expect(screen.getByRole('status').textContent).toBe('Uploading “harbour.png”…');
    const path = '/media/2025/03/01950000-0000-7000-8000-000000000000.png';
    await act(async () => finish({ path, type: 'image/png', size: 4 }));
    expect(screen.getByRole('status').textContent).toBe('Uploaded “01950000-0000-7000-8000-000000000000.png”.');
    const insert = screen.getByRole('button', { name: 'Insert' });
    expect((insert as HTMLButtonElement).disabled).toBe(true);
    await userEvent.type(screen.getByLabelText('Alternative text'), 'The harbour at dawn');
    await userEvent.click(insert);
    expect(onInsert).toHaveBeenCalledWith({ src: path, alt: 'The harbour at dawn' });
  });

  it('say why the server refused the file, and abort an upload still under way when it closes', async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const uploadFile = vi
      .fn()
      .mockImplementationOnce(async () => {
        throw new ApiError(415, 'unsupported_media_type', 'Not an image');
      })
      .mockImplementationOnce((_file: Blob, options?: UploadOptions) => {
        signals.push(options?.signal);
        return new Promise<UploadResponse>(() => {});
      });
    const { unmount } = renderDialog(uploadFile);
    const input = await screen.findByLabelText('Image file');
    await act(async () => {
      fireEvent.change(input, { target: { files: [png()] } });
    });
    expect(screen.getByRole('status').textContent).toBe(
      '“harbour.png” is not an image Quire can store. Choose a PNG, JPEG, GIF, WebP, AVIF or SVG file.',
    );
    fireEvent.change(input, { target: { files: [png()] } });
    expect(signals[0]?.aborted).toBe(false);
    unmount();
    expect(signals[0]?.aborted).toBe(true);
  });
});
