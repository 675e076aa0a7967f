import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { getPriority, setPriority } from 'node:os';

/** How much nicer than the server the image process runs (lower CPU priority), so requests are answered first. */
export const IMAGE_WORK_NICENESS = 10;

/** The largest nice value there is. */
const NICEST = 19;

/**
 * Puts every thread of this process under Linux's idle scheduling policy (SCHED_IDLE), through
 * util-linux's `chrt` (Node has no call for it): they run when nothing else on the machine is
 * ready to, and a waking thread of any other policy takes its core at once, where under a raised
 * nice value alone it may wait for the rest of an image thread's time slice. Without `chrt`, or
 * allowed no change, the threads keep the nice value.
 */
function idlePolicy(): Promise<void> {
  return new Promise((resolve) => {
    execFile('chrt', ['--all-tasks', '--idle', '--pid', '0', String(process.pid)], { timeout: 5_000 }, () => resolve());
  });
}

/**
 * Raises a thread's (on Linux) or the process's (elsewhere) nice value by IMAGE_WORK_NICENESS; one
 * that has ended meanwhile, or is not ours to change, is left.
 */
function nicer(id: number): void {
  try {
    // Relative to what it has: a server started with `nice` keeps its images below itself.
    setPriority(id, Math.min(NICEST, getPriority(id) + IMAGE_WORK_NICENESS));
  } catch {
    // A preference, not a limit.
  }
}

/**
 * Lowers the CPU priority of the image process (image-process-entry.ts) below the server's, once,
 * before it makes anything, so that on a busy machine the server's event loop (every other
 * request) gets the cores first and images are made with what is left. Linux keeps a nice value
 * and a policy per thread and a new thread takes its creator's, so every thread there now is
 * lowered (the later ones, libuv's and libvips', follow); elsewhere the nice value is the
 * process's. A change that is not allowed is skipped: this is a preference, not a limit.
 */
export async function lowerImageWorkPriority(): Promise<void> {
  if (process.platform !== 'linux') return nicer(0);
  // Each thread on its own: one that ends between the listing and its change skips nothing else.
  for (const task of await readdir('/proc/self/task').catch(() => [])) nicer(Number(task));
  await idlePolicy();
}
