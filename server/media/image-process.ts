import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ImageJob, ImageJobAnswer, ImageJobDone, ReencodeJob, VariantJob } from './image-process-entry.js';

/** How long the image process stays after its last job: a burst of variants does not pay its start each time. */
const IDLE_MS = 60_000;

/** Options of the image process. */
export interface ImageProcessOptions {
  /** How long it stays after its last job (IDLE_MS). */
  idleMs?: number;
}

/**
 * The image process's entry beside this module, in the form this one runs in: tsc's `.js` in
 * dist/, the esbuild bundles' `.cjs` (scripts/build.mjs builds one beside each server bundle), or
 * the `.ts` source under vitest and tsx, which the child loads through tsx.
 */
function entry(): { file: string; execArgv: string[] } {
  const here = new URL(import.meta.url);
  const extension = /\.(c?js|ts)$/.exec(here.pathname)?.[1] ?? 'js';
  const file = fileURLToPath(new URL(`./image-process-entry.${extension}`, here));
  if (extension !== 'ts') return { file, execArgv: [] };
  const tsx = pathToFileURL(createRequire(here).resolve('tsx')).href;
  return { file, execArgv: ['--import', tsx] };
}

/**
 * Does the server's pixel work (image variants, uploads re-encoded without their metadata) in a
 * process of its own, started on the first job and ended after a minute without one (IDLE_MS): libvips'
 * decoding, resizing and encoding, and the setting up that sharp does on libuv's threads, run
 * there, below the server's priority (image-work-priority.ts), and the images never pass through
 * the server's heap. The server's own sharp calls read headers only.
 * The server's event loop only sends a job and hears that its file is written. A process that
 * ends fails the jobs it held; the next job starts another.
 */
export class ImageProcess {
  private child: ChildProcess | null = null;
  private nextId = 0;
  private readonly waiting = new Map<
    number,
    { resolve: (done: ImageJobDone) => void; reject: (error: Error) => void }
  >();
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: ImageProcessOptions = {}) {}

  /** Makes the variant `job` describes and writes it whole to `job.out`: the file's size. */
  async variant(job: Omit<VariantJob, 'task'>): Promise<number> {
    return (await this.run({ ...job, task: 'variant' })).size;
  }

  /** Writes the upload `job.file` again without its metadata, to `job.out`: its pixel size as written. */
  async reencode(job: Omit<ReencodeJob, 'task'>): Promise<{ width: number; height: number }> {
    const { pixels } = await this.run({ ...job, task: 'reencode' });
    if (!pixels) throw new Error('The image process answered a re-encoding without its size');
    return pixels;
  }

  /** Ends the process, failing any job it holds. */
  stop(): void {
    this.child?.kill();
  }

  /** The process's id while one runs (tests look at its threads). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  private run(job: VariantJob | ReencodeJob): Promise<ImageJobDone> {
    const child = this.running();
    const id = this.nextId++;
    return new Promise<ImageJobDone>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.busy(child);
      child.send({ ...job, id } satisfies ImageJob, (error) => {
        if (error) this.settle({ id, failed: `the image process could not be sent the job: ${error.message}` });
      });
    });
  }

  private running(): ChildProcess {
    if (this.child) return this.child;
    const { file, execArgv } = entry();
    // Electron's own binary runs a script as Node only when told to.
    const env = process.versions.electron ? { ...process.env, ELECTRON_RUN_AS_NODE: '1' } : process.env;
    const child = fork(file, [], {
      execArgv,
      env,
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (answer: ImageJobAnswer) => this.settle(answer));
    const ended = (reason: string) => {
      if (this.child !== child) return;
      this.child = null;
      for (const id of [...this.waiting.keys()]) this.settle({ id, failed: reason });
    };
    child.on('error', (error) => ended(`the image process failed: ${error.message}`));
    child.on('exit', (code, signal) => ended(`the image process ended (${signal ?? code})`));
    this.child = child;
    this.idle(child);
    return child;
  }

  private settle(answer: ImageJobAnswer): void {
    const waiter = this.waiting.get(answer.id);
    if (!waiter) return;
    this.waiting.delete(answer.id);
    if ('failed' in answer) waiter.reject(new Error(`The image could not be made: ${answer.failed}`));
    else waiter.resolve(answer.done);
    if (this.waiting.size === 0 && this.child) this.idle(this.child);
  }

  /** While jobs are out, the process and its channel keep the server's event loop alive. */
  private busy(child: ChildProcess): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    child.ref();
    child.channel?.ref();
  }

  /** Without jobs, neither keeps it alive, and the process ends after IDLE_MS. */
  private idle(child: ChildProcess): void {
    child.unref();
    child.channel?.unref();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.child !== child || this.waiting.size > 0) return;
      // Forgotten first: a job that comes while it ends starts another.
      this.child = null;
      child.kill();
    }, this.options.idleMs ?? IDLE_MS);
    this.idleTimer.unref();
  }
}
