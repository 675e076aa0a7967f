import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { abilitiesOf } from '../../../common/access-rules.js';
import type { MediaAssetDetail } from '../../../common/asset-contract.js';
import { ApiError } from '../api/api-error.js';
import { LOCAL_USER } from '../api/auth-api.js';
import { AuthProvider } from '../api/auth-context.js';
import { mediaApi } from '../api/media-api.js';
import { fakeApi, WithApi } from '../test-support/fake-api.js';
import { ImageDescription } from './image-description.js';

vi.mock('../api/media-api.js', () => ({ mediaApi: { byPath: vi.fn(), change: vi.fn() } }));

const PATH = '/media/2025/03/01950000-0000-7000-8000-000000000000.png';

function assetOf(overrides: Partial<MediaAssetDetail> = {}): MediaAssetDetail {
  return {
    id: 'a1',
    path: PATH,
    file_name: 'harbour.png',
    type: 'image/png',
    size: 2048,
    width: 640,
    height: 400,
    hash: 'f'.repeat(64),
    alt: '',
    caption: '',
    credit: '',
    focal: { x: 0.5, y: 0.5 },
    folder: null,
    uploaded_by: 'aldo',
    uploaded_at: '2026-01-01 10:00:00.000000',
    updated_at: '2026-01-01 10:00:00.000000',
    used_in: [],
    used_elsewhere: 0,
    ...overrides,
  };
}

function show(role: 'admin' | 'author' | 'viewer' = 'admin', name: string | null = null) {
  const me = { ...LOCAL_USER, role, name, can: abilitiesOf(role) };
  render(
    <WithApi api={fakeApi([])}>
      <AuthProvider state={{ me }}>
        <ImageDescription path={PATH} known={null} label="Cover" />
      </AuthProvider>
    </WithApi>,
  );
}

const byPath = vi.mocked(mediaApi.byPath);
const change = vi.mocked(mediaApi.change);

beforeEach(() => {
  byPath.mockReset();
  change.mockReset();
});

describe('an image field describing a value saved earlier', () => {
  it('previews the crops a site gets: the server cuts them around the focal point', async () => {
    byPath.mockResolvedValue(assetOf());
    show();
    const caption = await screen.findByText('Crops at the focal point (set it in Media)');
    const crops = [...(caption.closest('figure')?.querySelectorAll('img') ?? [])];
    expect(crops.map((crop) => [crop.getAttribute('src'), crop.width, crop.height])).toEqual([
      [`${PATH}?w=144&h=144&fit=cover&v=${'f'.repeat(64)}`, 72, 72],
      [`${PATH}?w=256&h=144&fit=cover&v=${'f'.repeat(64)}`, 128, 72],
    ]);
  });

  it('shows no crops of an image whose size is unknown', async () => {
    byPath.mockResolvedValue(assetOf({ width: null, height: null }));
    show();
    await screen.findByLabelText('Alt text for Cover');
    expect(screen.queryByText(/Crops at the focal point/)).toBeNull();
  });

  it('reads the asset by its path, warns of missing alt text, and saves alt text typed in place', async () => {
    byPath.mockResolvedValue(assetOf());
    change.mockImplementation(async (_id, patch) => ({ ...assetOf(), alt: patch.alt ?? '' }));
    show();
    const input = await screen.findByLabelText('Alt text for Cover');
    expect(byPath).toHaveBeenCalledWith(PATH);
    expect(screen.getByText('640 × 400 px · 2 KB')).toBeTruthy();
    const warning = screen.getByText('This image has no alt text: describe it for people who cannot see it.');
    expect(input.getAttribute('aria-describedby')).toBe(warning.id);
    const save = screen.getByRole('button', { name: 'Save alt text for Cover' });
    expect((save as HTMLButtonElement).disabled).toBe(true);

    await userEvent.type(input, '  Boats at dawn {Enter}');
    expect(change).toHaveBeenCalledWith('a1', { alt: 'Boats at dawn' });
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Alt text saved.'));
    expect(screen.queryByText(/has no alt text/)).toBeNull();
    expect(input.hasAttribute('aria-describedby')).toBe(false);
    expect((save as HTMLButtonElement).disabled).toBe(true);
  });

  it('says why alt text was not saved, keeping what was typed', async () => {
    byPath.mockResolvedValue(assetOf({ alt: 'Old' }));
    change.mockRejectedValue(new ApiError(403, 'forbidden', 'edna (author) may not change this asset'));
    show();
    const input = await screen.findByLabelText('Alt text for Cover');
    expect((input as HTMLInputElement).value).toBe('Old');
    await userEvent.clear(input);
    await userEvent.type(input, 'New');
    await userEvent.click(screen.getByRole('button', { name: 'Save alt text for Cover' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Couldn’t save the alt text');
    expect((input as HTMLInputElement).value).toBe('New');
  });

  it('shows alt text read-only to someone who may not change the asset', async () => {
    byPath.mockResolvedValue(assetOf({ alt: 'Boats' }));
    show('author', 'edna');
    expect(await screen.findByText('Alt text: Boats')).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('still warns a viewer that the image has no alt text', async () => {
    byPath.mockResolvedValue(assetOf());
    show('viewer', 'vera');
    expect(await screen.findByText(/has no alt text/)).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('shows no alt text for a path no asset has', async () => {
    byPath.mockRejectedValue(new ApiError(404, 'not_found', 'No media asset has the path'));
    show();
    await waitFor(() => expect(byPath).toHaveBeenCalled());
    expect(screen.getByText('Drop another image here to replace it.')).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByText(/alt text/i)).toBeNull();
  });
});
