import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ImageProcess } from './image-process.js';
import type { VariantJob } from './image-process-entry.js';
import { planVariant } from './image-variants.js';
import { IMAGE_WORK_NICENESS } from './image-work-priority.js';

/** Linux's idle scheduling policy, as /proc gives a thread's policy. */
const SCHED_IDLE = 5;

/** Whether util-linux's `chrt` is there to set it. */
const chrtFound = spawnSync('chrt', ['--version']).status === 0;

/** Each thread of process `pid`: its name, nice value and scheduling policy, from /proc. */
function threadsOf(pid: number): { name: string; nice: number; policy: number }[] {
  return readdirSync(`/proc/${pid}/task`).map((task) => {
    const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    // Fields after the name, which is in parentheses: state is the first, nice the 17th, policy the 39th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const name = readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim();
    return { name, nice: Number(fields[16]), policy: Number(fields[38]) };
  });
}

const SHAPE = { width: 64, height: 48 };
const PLAN = planVariant(
  { width: 40, height: null, fit: 'cover', format: 'webp', quality: null, version: null },
  { ...SHAPE, format: 'jpeg' },
  'webp',
  { x: 0.5, y: 0.5 },
);

describe('the image process', () => {
  let dir: string;
  let original: string;
  let images: ImageProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-image-process-'));
    original = join(dir, 'photo.jpg');
    writeFileSync(
      original,
      await sharp({ create: { ...SHAPE, channels: 3, background: '#336699' } })
        .jpeg()
        .toBuffer(),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(() => images?.stop());

  const job = (out: string, input: VariantJob['input'] = { file: original }): Omit<VariantJob, 'task'> => ({
    input,
    original: SHAPE,
    plan: PLAN,
    maxPixels: 1e6,
    out: join(dir, out),
  });

  it('makes a variant from a file or from bytes and writes it whole to its cache file', async () => {
    images = new ImageProcess();
    const size = await images.variant(job('a/from-file.webp'));
    const written = join(dir, 'a', 'from-file.webp');
    expect(statSync(written).size).toBe(size);
    expect(await sharp(written).metadata()).toMatchObject({ format: 'webp', width: 40, height: 30 });
    const bytes = new Uint8Array(readFileSync(original));
    const fromBytes = await images.variant(job('from-bytes.webp', { bytes }));
    expect(fromBytes).toBe(size);
    expect(readdirSync(join(dir, 'a'))).toEqual(['from-file.webp']);
  }, 30_000);

  it('re-encodes an upload without its metadata, its orientation applied to the pixels', async () => {
    images = new ImageProcess();
    const upload = join(dir, 'camera.jpg');
    const exif = {
      IFD0: { Make: 'Camera', Model: 'Phone' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 0/1' },
    };
    writeFileSync(
      upload,
      await sharp({ create: { ...SHAPE, channels: 3, background: '#336699' } })
        .withExif(exif)
        .withMetadata({ orientation: 6 })
        .jpeg()
        .toBuffer(),
    );
    expect((await sharp(upload).metadata()).exif).toBeDefined();
    const out = join(dir, 'camera.clean.jpg');
    const pixels = await images.reencode({
      file: upload,
      format: 'jpeg',
      quality: 92,
      rotate: true,
      maxPixels: 1e6,
      out,
    });
    // Turned upright: the 64 x 48 picture shown a quarter turn round is 48 wide.
    expect(pixels).toEqual({ width: 48, height: 64 });
    const written = await sharp(out).metadata();
    expect(written).toMatchObject({ format: 'jpeg', width: 48, height: 64 });
    expect(written.exif).toBeUndefined();
    expect(written.orientation).toBeUndefined();
  }, 30_000);

  it.skipIf(process.platform !== 'linux')(
    "runs every thread below the server's priority: nice raised, and the idle policy where chrt is (Linux)",
    async () => {
      images = new ImageProcess();
      await images.variant(job('priority.webp'));
      const pid = images.pid as number;
      const threads = threadsOf(pid);
      expect(threads.some((thread) => thread.name === 'libvips worker')).toBe(true);
      for (const thread of threads) {
        expect(thread.nice, thread.name).toBe(Math.min(19, getPriority() + IMAGE_WORK_NICENESS));
        if (chrtFound) expect(thread.policy, thread.name).toBe(SCHED_IDLE);
      }
    },
    30_000,
  );

  it('fails a job whose image cannot be read and goes on with the next', async () => {
    images = new ImageProcess();
    await images.variant(job('first.webp'));
    const pid = images.pid;
    const broken = join(dir, 'broken.jpg');
    writeFileSync(broken, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]));
    await expect(images.variant(job('broken.webp', { file: broken }))).rejects.toThrow(/The image could not be made/);
    expect(existsSync(join(dir, 'broken.webp'))).toBe(false);
    expect(await images.variant(job('after.webp'))).toBeGreaterThan(0);
    expect(images.pid).toBe(pid);
  }, 30_000);

  it('ends after its idle time without a job, and the next job starts another', async () => {
    images = new ImageProcess({ idleMs: 200 });
    await images.variant(job('idle-before.webp'));
    const pid = images.pid as number;
    await images.variant(job('idle-again.webp'));
    expect(images.pid).toBe(pid);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(images.pid).toBeUndefined();
    // Ended (and reaped), not only forgotten.
    if (process.platform === 'linux')
      await expect.poll(() => existsSync(`/proc/${pid}`), { timeout: 5_000 }).toBe(false);
    expect(await images.variant(job('idle-after.webp'))).toBeGreaterThan(0);
    expect(images.pid).not.toBe(pid);
  }, 30_000);

  it('fails the jobs of a process that ends, and starts another for the next job', async () => {
    images = new ImageProcess();
    await images.variant(job('before.webp'));
    const pid = images.pid as number;
    const held = images.variant(job('held.webp'));
    process.kill(pid, 'SIGKILL');
    await expect(held).rejects.toThrow(/the image process ended/);
    expect(await images.variant(job('again.webp'))).toBeGreaterThan(0);
    expect(images.pid).not.toBe(pid);
  }, 30_000);
});
