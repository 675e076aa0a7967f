import { describe, expect, it } from 'vitest';
import { DEFAULT_IMAGE_OPTIONS } from '../media/image-options.js';
import { readQuireConfig, UsageError } from './quire-config.js';

describe('--image-sizes and --keep-image-metadata', () => {
  it('default to any size and stripped metadata', () => {
    expect(readQuireConfig([], {}).images).toEqual(DEFAULT_IMAGE_OPTIONS);
  });

  it('read the allow-list sorted and the metadata switch', () => {
    const { images } = readQuireConfig(['--image-sizes', '1280,320, 640', '--keep-image-metadata'], {});
    expect(images).toMatchObject({ sizes: [320, 640, 1280], keepMetadata: true });
  });

  it('refuse a size that is not a whole number from 1 to 4096 with one line', () => {
    for (const raw of ['', '0', '4097', '320,abc', '1.5']) {
      expect(() => readQuireConfig(['--image-sizes', raw], {}), raw).toThrow(UsageError);
    }
    expect(() => readQuireConfig(['--image-sizes', '5000'], {})).toThrow(/--image-sizes must list whole numbers/);
  });
});

describe('--image-cache-mb', () => {
  it('defaults to 1024 MB and is read in bytes', () => {
    expect(readQuireConfig([], {}).images.cacheMaxBytes).toBe(1024 * 2 ** 20);
    expect(readQuireConfig(['--image-cache-mb', '50'], {}).images.cacheMaxBytes).toBe(50 * 2 ** 20);
  });

  it('refuses anything but a whole number of at least 1', () => {
    for (const raw of ['0', '1.5', 'lots']) {
      expect(() => readQuireConfig(['--image-cache-mb', raw], {}), raw).toThrow(
        /--image-cache-mb must be a whole number/,
      );
    }
  });
});
