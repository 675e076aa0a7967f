import { readFile } from 'node:fs/promises';
import { makeVariant, type OriginalShape, type VariantPlan } from './image-variants.js';
import { lowerThisProcess } from './image-work-priority.js';
import { writeAtomically } from './variant-cache-files.js';

/**
 * The image process's entry (image-process.ts starts it by its path): lowers its own priority,
 * then makes each variant it is sent and writes it to its cache file, answering with the file's
 * size or why making it failed. It ends with the server (its channel closes).
 */

/** A variant to make: the original (a file, or bytes from the database), how, and where to write it. */
export interface ImageJob {
  id: number;
  input: { file: string } | { bytes: Uint8Array };
  original: Pick<OriginalShape, 'width' | 'height'>;
  plan: VariantPlan;
  maxPixels: number;
  /** The cache file, written whole or not at all. */
  out: string;
}

/** An answer: the size of the file written, or the error making it threw. */
export type ImageJobAnswer = { id: number; size: number } | { id: number; failed: string };

const ready = lowerThisProcess();

async function run(job: ImageJob): Promise<ImageJobAnswer> {
  try {
    await ready;
    // Bytes, not a file name: libvips caches what it opened by name, and a replaced file keeps its name.
    const input = 'file' in job.input ? await readFile(job.input.file) : Buffer.from(job.input.bytes);
    const bytes = await makeVariant(input, job.original, job.plan, job.maxPixels);
    await writeAtomically(job.out, bytes);
    return { id: job.id, size: bytes.length };
  } catch (error) {
    return { id: job.id, failed: error instanceof Error ? error.message : String(error) };
  }
}

process.on('message', (job: ImageJob) => {
  void run(job).then((answer) => process.send?.(answer));
});
process.on('disconnect', () => process.exit(0));
