import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { UploadResponse } from '../../../common/api-contract.js';
import { ApiError } from '../api/api-error.js';
import type { UploadOptions } from '../api/client.js';
import { fakeApi, WithApi } from '../test-support/fake-api.js';
import { useImageUpload } from './use-image-upload.js';

const png = (name: string) => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type: 'image/png' });
const answer = (path: string): UploadResponse => ({ path, type: 'image/png', size: 4 });

/** An uploadFile whose calls stay open until the test settles them; each call's signal is kept. */
function heldUploads() {
  const calls: { signal?: AbortSignal; resolve(answer: UploadResponse): void; reject(error: unknown): void }[] = [];
  const uploadFile = vi.fn(
    (_file: Blob, options?: UploadOptions) =>
      new Promise<UploadResponse>((resolve, reject) => {
        calls.push({ signal: options?.signal, resolve, reject });
      }),
  );
  return { calls, uploadFile };
}

function renderUpload(uploadFile: ReturnType<typeof heldUploads>['uploadFile']) {
  const onUploaded = vi.fn();
  const api = fakeApi([], { uploadFile });
  const wrapper = ({ children }: { children: ReactNode }) => <WithApi api={api}>{children}</WithApi>;
  const hook = renderHook(() => useImageUpload(onUploaded), { wrapper });
  return { ...hook, onUploaded };
}

describe('useImageUpload', () => {
  it('abort the upload under way when a newer one starts, and report only the newer answer', async () => {
    const { calls, uploadFile } = heldUploads();
    const { result, onUploaded } = renderUpload(uploadFile);
    act(() => void result.current.upload(png('first.png')));
    act(() => void result.current.upload(png('second.png')));
    expect(calls[0]?.signal?.aborted).toBe(true);
    expect(calls[1]?.signal?.aborted).toBe(false);
    expect(result.current.uploading).toEqual({ name: 'second.png', progress: 0 });
    // The first answer arrives late (a server that finished anyway): it is not the field's value.
    await act(async () => calls[0]?.resolve(answer('/media/2025/03/first.png')));
    expect(onUploaded).not.toHaveBeenCalled();
    expect(result.current.uploading).toEqual({ name: 'second.png', progress: 0 });
    await act(async () => calls[1]?.resolve(answer('/media/2025/03/second.png')));
    expect(onUploaded).toHaveBeenCalledTimes(1);
    expect(onUploaded).toHaveBeenCalledWith(answer('/media/2025/03/second.png'));
    expect(result.current.uploading).toBeNull();
  });

  it('say why an upload failed, and say nothing for one cancelled', async () => {
    const { calls, uploadFile } = heldUploads();
    const { result, onUploaded } = renderUpload(uploadFile);
    act(() => void result.current.upload(png('broken.png')));
    await act(async () => calls[0]?.reject(new ApiError(415, 'unsupported_media_type', 'Not an image')));
    expect(result.current.problem).toBe(
      '“broken.png” is not an image Quire can store. Choose a PNG, JPEG, GIF, WebP, AVIF or SVG file.',
    );
    act(() => void result.current.upload(png('slow.png')));
    expect(result.current.problem).toBeNull();
    act(() => result.current.cancel());
    expect(calls[1]?.signal?.aborted).toBe(true);
    expect(result.current.uploading).toBeNull();
    await act(async () => calls[1]?.reject(new DOMException('The upload was aborted', 'AbortError')));
    expect(result.current.problem).toBeNull();
    expect(onUploaded).not.toHaveBeenCalled();
  });

  it('abort the upload under way when the screen or dialog goes away', () => {
    const { calls, uploadFile } = heldUploads();
    const { result, unmount } = renderUpload(uploadFile);
    act(() => void result.current.upload(png('left.png')));
    unmount();
    expect(calls[0]?.signal?.aborted).toBe(true);
  });
});
