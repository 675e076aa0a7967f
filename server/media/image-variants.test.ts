import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error.js';
import { parseImageSizes } from './image-options.js';
import {
  asksForVariant,
  CENTRE,
  makeVariant,
  negotiateFormat,
  planVariant,
  readVariantRequest,
} from './image-variants.js';

const original = { width: 1200, height: 800, format: 'jpeg' as const };

function refusal(work: () => unknown): AppError {
  try {
    work();
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a refusal');
}

describe('variant requests', () => {
  it('asks for a variant only with a transform parameter', () => {
    expect(asksForVariant({})).toBe(false);
    expect(asksForVariant({ v: 'abc' })).toBe(false);
    expect(asksForVariant({ w: '10' })).toBe(true);
    expect(asksForVariant({ format: 'auto' })).toBe(true);
  });

  it('reads sizes, fit, format and quality, and refuses anything else with a 400', () => {
    expect(readVariantRequest({ w: '800', h: '600', fit: 'contain', format: 'webp', q: '70' }, null)).toEqual({
      width: 800,
      height: 600,
      fit: 'contain',
      format: 'webp',
      quality: 70,
      version: null,
    });
    for (const query of [
      { w: '0' },
      { w: '4097' },
      { w: '-5' },
      { w: '1e3' },
      { h: 'abc' },
      { fit: 'fill' },
      { format: 'tiff' },
      { q: '0' },
      { q: '101' },
      { w: '10', x: '1' },
      { w: ['10', '20'] },
    ]) {
      const error = refusal(() => readVariantRequest(query, null));
      expect(error).toBeInstanceOf(AppError);
      expect(error.status).toBe(400);
    }
  });

  it('keeps to the --image-sizes allow-list', () => {
    const sizes = parseImageSizes('640, 320,640');
    expect(sizes).toEqual([320, 640]);
    expect(readVariantRequest({ w: '320' }, sizes).width).toBe(320);
    expect(refusal(() => readVariantRequest({ w: '321' }, sizes)).message).toContain('320, 640');
    expect(() => parseImageSizes('0,10')).toThrow(/--image-sizes/);
    expect(() => parseImageSizes('5000')).toThrow(/--image-sizes/);
  });
});

describe('format negotiation', () => {
  it('picks AVIF, then WebP, then the original format; a wildcard or q=0 does not count', () => {
    expect(negotiateFormat('image/avif,image/webp,*/*', 'jpeg')).toBe('avif');
    expect(negotiateFormat('image/avif;q=0, image/webp', 'jpeg')).toBe('webp');
    expect(negotiateFormat('image/*,*/*;q=0.8', 'png')).toBe('png');
    expect(negotiateFormat(undefined, 'jpeg')).toBe('jpeg');
  });
});

describe('plans', () => {
  it('never goes beyond the original: a box is scaled down whole, one side is capped', () => {
    const ask = (w: number | null, h: number | null) =>
      planVariant(
        { width: w, height: h, fit: 'cover', format: null, quality: null, version: null },
        original,
        'webp',
        CENTRE,
      );
    expect(ask(2400, 1200)).toMatchObject({ width: 1200, height: 600 });
    expect(ask(4000, null)).toMatchObject({ width: 1200, height: null, focal: null });
    expect(ask(null, 500)).toMatchObject({ width: null, height: 500 });
    expect(ask(300, 300)).toMatchObject({ width: 300, height: 300, focal: { x: 0.5, y: 0.5 } });
  });
});

describe('making variants', () => {
  it('applies EXIF orientation and crops around the focal point', async () => {
    // 60 x 40 stored, shown turned a quarter (orientation 6) as 40 x 60: left half red, right half blue as stored.
    const left = await sharp({ create: { width: 30, height: 40, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    const stored = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#0000ff' } })
      .composite([{ input: left, left: 0, top: 0 }])
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const shown = { width: 40, height: 60 };
    const plan = (focal: { x: number; y: number }) =>
      planVariant(
        { width: 40, height: 20, fit: 'cover', format: null, quality: null, version: null },
        { ...shown, format: 'jpeg' },
        'png',
        focal,
      );
    // Turned clockwise, the stored left half (red) is the top half.
    const top = await sharp(await makeVariant(stored, shown, plan({ x: 0.5, y: 0 }), 1e6))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(top.info).toMatchObject({ width: 40, height: 20 });
    expect(top.data[0]).toBeGreaterThan(200);
    expect(top.data[2]).toBeLessThan(60);
    const bottom = await sharp(await makeVariant(stored, shown, plan({ x: 0.5, y: 1 }), 1e6))
      .raw()
      .toBuffer();
    expect(bottom[0]).toBeLessThan(60);
    expect(bottom[2]).toBeGreaterThan(200);
  });
});
