import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { MediaAsset } from '../../../common/asset-contract.js';
import { MediaGrid } from './media-grid.js';

const asset = (id: string, fileName: string, alt: string): MediaAsset => ({
  id,
  path: `/media/2025/03/${id}.png`,
  file_name: fileName,
  type: 'image/png',
  size: 2048,
  width: 640,
  height: 400,
  hash: `hash-${id}`,
  alt,
  caption: '',
  credit: '',
  focal: { x: 0.5, y: 0.5 },
  folder: null,
  uploaded_by: null,
  uploaded_at: '2025-03-01 10:00:00',
  updated_at: '2025-03-01 10:00:00',
});

describe('MediaGrid', () => {
  const harbour = asset('01950000-0000-7000-8000-000000000001', 'harbour.png', 'The harbour at dawn');
  const logo = asset('01950000-0000-7000-8000-000000000002', 'logo.png', '');

  it('show a thumbnail button per asset, its file name, its alt text and a flag where it has none', () => {
    render(<MediaGrid assets={[harbour, logo]} onOpen={() => {}} label="Media files" />);
    const grid = screen.getByRole('list', { name: 'Media files' });
    const tiles = within(grid).getAllByRole('button');
    expect(tiles.map((tile) => tile.getAttribute('title'))).toEqual(['harbour.png', 'logo.png']);
    const image = within(tiles[0] as HTMLElement).getByRole('img', { name: 'The harbour at dawn' });
    expect(image.getAttribute('src')).toBe(`${harbour.path}?w=240&h=240&fit=cover&v=hash-${harbour.id}`);
    expect(within(tiles[0] as HTMLElement).queryByText('No alt text')).toBeNull();
    expect(within(tiles[1] as HTMLElement).getByText('No alt text')).toBeTruthy();
  });

  it('open the asset whose thumbnail is clicked', async () => {
    const onOpen = vi.fn();
    render(<MediaGrid assets={[harbour, logo]} onOpen={onOpen} />);
    await userEvent.click(screen.getByRole('button', { name: /logo\.png/ }));
    expect(onOpen).toHaveBeenCalledTimes(1);
    expect(onOpen).toHaveBeenCalledWith(logo);
  });
});
