import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { getPriority, setPriority } from 'node:os';

/** How much nicer than the server libvips' threads run (lower CPU priority), so requests are answered first. */
export const IMAGE_WORK_NICENESS = 10;

/** The largest nice value there is. */
const NICEST = 19;

/**
 * Puts a thread under Linux's idle scheduling policy (SCHED_IDLE), through util-linux's `chrt`
 * (Node has no call for it): it runs when nothing else on the machine is ready to, and a waking
 * thread of any other policy takes its core at once, where under a raised nice value alone it may
 * wait for the rest of the image thread's time slice. Without `chrt`, or allowed no change, the
 * thread keeps the nice value.
 */
function idlePolicy(tid: number): Promise<void> {
  return new Promise((resolve) => {
    execFile('chrt', ['--idle', '--pid', '0', String(tid)], { timeout: 5_000 }, () => resolve());
  });
}

/** What libvips names its worker threads (Linux shows it in /proc/self/task/<tid>/comm). */
const LIBVIPS_THREAD = 'libvips worker';

/** Threads looked at: lowered, or seen twice under another name. */
const examined = new Set<number>();

/**
 * Threads seen once under another name: one that has only just started may not carry its name
 * yet, so it is looked at once more.
 */
const seenOnce = new Set<number>();

/** Drops the threads that have ended from `threads`. */
function keepCurrent(threads: Set<number>, current: ReadonlySet<number>): void {
  for (const tid of threads) if (!current.has(tid)) threads.delete(tid);
}

/**
 * Lowers the CPU priority of libvips' worker threads, where sharp does the pixel work, so that on a
 * busy machine the event loop (every other request) gets the cores first and images are made with
 * what is left: their nice value raised, and the idle scheduling policy (`idlePolicy`). Linux
 * schedules threads one by one, and names them in /proc, so this is done on Linux only (elsewhere a
 * no-op). A thread that cannot be changed is left as it is: this is a preference, not a limit.
 */
export async function lowerImageWorkPriority(): Promise<void> {
  if (process.platform !== 'linux') return;
  // One listing per image, and a read of each thread's name only when it is new: libvips ends
  // idle threads and starts others later, so a thread count that has not changed can still hide
  // new threads.
  let tasks: string[];
  try {
    tasks = await readdir('/proc/self/task');
  } catch {
    return;
  }
  const current = new Set(tasks.map(Number));
  keepCurrent(examined, current);
  keepCurrent(seenOnce, current);
  for (const tid of current) {
    if (examined.has(tid) || tid === process.pid) continue;
    try {
      const name = (await readFile(`/proc/self/task/${tid}/comm`, 'utf8')).trim();
      if (name !== LIBVIPS_THREAD) {
        if (seenOnce.delete(tid)) examined.add(tid);
        else seenOnce.add(tid);
        continue;
      }
      examined.add(tid);
      // Relative to what the thread has: a server started with `nice` keeps its images below itself.
      setPriority(tid, Math.min(NICEST, getPriority(tid) + IMAGE_WORK_NICENESS));
      await idlePolicy(tid);
    } catch {
      // Gone since the listing, or not ours to change.
    }
  }
}
