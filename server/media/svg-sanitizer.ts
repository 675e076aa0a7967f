import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AppError } from '../errors/app-error.js';
import type { SvgCleanAnswer, SvgCleanRequest } from './svg-clean-worker.js';
import type { SvgCleaning } from './svg-cleaner.js';

/**
 * Cleans an uploaded SVG so that nothing in it can run or reach anything, wherever it is shown
 * (opened directly, in an `<img>`, inlined by a site): DOMPurify with its SVG profiles does the
 * element and attribute allow-list (no `<script>`, event handlers, `<foreignObject>`, `<animate>`
 * or `<set>` retargeting `href`), on a document parsed as XML by jsdom; its hooks (svg-cleaner.ts) go further
 * and keep only same-document references: every `href`/`xlink:href` and every CSS `url()` must be
 * a `#fragment` (no `http:`, `data:`, `javascript:` nor relative files), and CSS `@import`,
 * `expression(` or an escape empties the style it is in. A DOCTYPE with declarations of its own
 * (entities: the billion laughs) is refused before parsing; a plain one is dropped. What is left is
 * serialized as XML, so the stored bytes are exactly what was checked.
 *
 * Parsing and cleaning a large drawing takes seconds of CPU, so it runs in a worker thread (one,
 * started on the first SVG and not keeping the process alive), never on the server's own thread:
 * svg-clean-worker.ts, a module of its own started by its path, runs svg-cleaner.ts.
 */

/** Largest SVG accepted: a drawing, not a data dump; the parse holds the whole document in memory. */
export const MAX_SVG_BYTES = 1024 * 1024;

type WorkerAnswer = SvgCleanAnswer['answer'];

/**
 * The worker's module beside this one, in the form this one runs in: tsc's `.js` in dist/, the
 * esbuild bundles' `.cjs` (scripts/build.mjs builds one beside each server bundle), or the `.ts`
 * source under vitest and tsx. A source is loaded through tsx's require hook, registered in the
 * worker itself: a worker thread of this Node does not take the loader hooks of the thread that
 * starts it.
 */
function workerModule(): { file: string | URL; eval?: boolean } {
  const here = new URL(import.meta.url);
  const extension = /\.(c?js|ts)$/.exec(here.pathname)?.[1] ?? 'js';
  const file = new URL(`./svg-clean-worker.${extension}`, here);
  if (extension !== 'ts') return { file };
  const tsx = createRequire(here).resolve('tsx/cjs/api');
  const bootstrap = `require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(fileURLToPath(file))});`;
  return { file: bootstrap, eval: true };
}

let worker: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, (answer: WorkerAnswer) => void>();

/** The cleaning worker, started on first use; one that failed or exited is replaced by the next call. */
function cleaningWorker(): Worker {
  if (worker) return worker;
  const { file, eval: evaluated } = workerModule();
  const started = new Worker(file, {
    eval: evaluated,
    // A drawing that would need more than this is refused (the worker ends, the upload fails) rather than swelling the server.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  started.unref();
  const failAll = (reason: string) => {
    if (worker === started) worker = null;
    for (const [id, settle] of waiting) {
      waiting.delete(id);
      settle({ failed: reason });
    }
  };
  started.on('message', ({ id, answer }: SvgCleanAnswer) => {
    const settle = waiting.get(id);
    waiting.delete(id);
    settle?.(answer);
    if (waiting.size === 0) started.unref();
  });
  started.on('error', (error) => failAll(String(error)));
  started.on('exit', (code) => failAll(`the SVG worker exited (${code})`));
  worker = started;
  return started;
}

const REFUSALS: Record<Extract<SvgCleaning, { refused: string }>['refused'], AppError> = {
  entities: new AppError(
    'bad_request',
    'The SVG declares entities in a DOCTYPE, which is not accepted; remove the DOCTYPE',
  ),
  not_well_formed: new AppError(
    'bad_request',
    'The SVG is not well-formed XML; fix or re-export it and upload it again',
  ),
  not_svg: new AppError(
    'unsupported_media_type',
    'The file is XML but not an SVG image (its root must be <svg xmlns="http://www.w3.org/2000/svg">)',
  ),
  draws_nothing: new AppError(
    'bad_request',
    'The SVG draws nothing once its script and outside references are removed; upload the drawing itself',
  ),
};

/**
 * The SVG `text` cleaned, as XML text, made in the worker (its size is checked before it is read:
 * MAX_SVG_BYTES). Refused: a text that is not well-formed XML or declares entities (400), a
 * document whose root is not an SVG `<svg>` element (415), and one that draws nothing once cleaned
 * (400: it was all script, and an empty drawing has no size to show or resize).
 */
export async function sanitizeSvg(text: string): Promise<string> {
  const running = cleaningWorker();
  const id = nextId++;
  const answer = await new Promise<WorkerAnswer>((settle) => {
    waiting.set(id, settle);
    running.ref();
    running.postMessage({ id, text } satisfies SvgCleanRequest);
  });
  if ('failed' in answer) throw new Error(`Cleaning the SVG failed: ${answer.failed}`);
  if ('refused' in answer) {
    const refusal = REFUSALS[answer.refused];
    throw new AppError(refusal.code, refusal.message);
  }
  return answer.svg;
}
