import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { makeVariant, type OriginalShape, type VariantPlan } from './image-variants.js';
import { lowerImageWorkPriority } from './image-work-priority.js';
import { writeAtomically } from './variant-cache-files.js';

/**
 * The image process's entry (image-process.ts starts it by its path): lowers its own priority,
 * then does each job it is sent (a variant made and written to its cache file, or an upload
 * re-encoded without its metadata) and answers with what it wrote, or why it failed. It ends with
 * the server (its channel closes).
 */

/** A variant to make: the original (a file, or bytes from the database), how, and where to write it whole. */
export interface VariantJob {
  task: 'variant';
  input: { file: string } | { bytes: Uint8Array };
  original: Pick<OriginalShape, 'width' | 'height'>;
  plan: VariantPlan;
  maxPixels: number;
  out: string;
}

/**
 * An upload to write again without its EXIF, XMP and IPTC metadata, in `format` at `quality`
 * (the colour profile kept), its orientation applied to the pixels first when `rotate`.
 */
export interface ReencodeJob {
  task: 'reencode';
  file: string;
  format: 'png' | 'jpeg' | 'gif' | 'webp' | 'avif';
  quality: number;
  rotate: boolean;
  maxPixels: number;
  out: string;
}

/** A job as sent, under the id its answer carries. */
export type ImageJob = (VariantJob | ReencodeJob) & { id: number };

/** What a job wrote: the file's size, and a re-encoded upload's pixel size (an animation's frames' height together). */
export interface ImageJobDone {
  size: number;
  pixels?: { width: number; height: number };
}

/** An answer: what the job wrote, or the message of the error it threw. */
export type ImageJobAnswer = { id: number; done: ImageJobDone } | { id: number; failed: string };

async function variant(job: VariantJob): Promise<ImageJobDone> {
  // Bytes, not a file name: libvips caches what it opened by name, and a replaced file keeps its name.
  const input = 'file' in job.input ? await readFile(job.input.file) : Buffer.from(job.input.bytes);
  const bytes = await makeVariant(input, job.original, job.plan, job.maxPixels);
  await writeAtomically(job.out, bytes);
  return { size: bytes.length };
}

async function reencode(job: ReencodeJob): Promise<ImageJobDone> {
  // A received upload's file name is its own, never reused: opening it by name is safe here.
  let image = sharp(job.file, { animated: true, limitInputPixels: job.maxPixels });
  if (job.rotate) image = image.rotate();
  const info = await image.keepIccProfile().toFormat(job.format, { quality: job.quality }).toFile(job.out);
  return { size: info.size, pixels: { width: info.width, height: info.height } };
}

const ready = lowerImageWorkPriority();

async function run(job: ImageJob): Promise<ImageJobAnswer> {
  try {
    await ready;
    return { id: job.id, done: job.task === 'variant' ? await variant(job) : await reencode(job) };
  } catch (error) {
    return { id: job.id, failed: error instanceof Error ? error.message : String(error) };
  }
}

process.on('message', (job: ImageJob) => {
  void run(job).then((answer) => process.send?.(answer));
});
process.on('disconnect', () => process.exit(0));
