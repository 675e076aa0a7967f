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

/** Threads already looked at (lowered or not libvips'): each is read once. */
const examined = new Set<number>();

/** How many threads the process had when its threads were last listed (null: never). */
let threadsListed: number | null = null;

/** How many threads the process has now (/proc/self/status `Threads:`), or null where unreadable. */
async function threadCount(): Promise<number | null> {
  try {
    const match = /^Threads:\s*(\d+)$/m.exec(await readFile('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Lowers the CPU priority of libvips' worker threads, where sharp does the pixel work, so that on a
 * busy machine the event loop (every other request) gets the cores first and images are made with
 * what is left: their nice value raised, and the idle scheduling policy (`idlePolicy`). Linux schedules threads one by one, and names them in /proc, so this is done on
 * Linux only (elsewhere a no-op); libvips reuses its threads, so after the first images it finds
 * none new, and lists them only when the process's thread count has changed. A thread that cannot
 * be changed is left as it is: this is a preference, not a limit.
 */
export async function lowerImageWorkPriority(): Promise<void> {
  if (process.platform !== 'linux') return;
  // One short read per image: the threads are listed again only when their number has changed
  // since the last listing (libvips keeps its threads, so after the first images it has not).
  const count = await threadCount();
  if (count !== null && count === threadsListed) return;
  let tasks: string[];
  try {
    tasks = await readdir('/proc/self/task');
  } catch {
    return;
  }
  threadsListed = count;
  // A thread id the kernel gives again later is a new thread, to be looked at again.
  const current = new Set(tasks.map(Number));
  for (const tid of examined) if (!current.has(tid)) examined.delete(tid);
  for (const task of tasks) {
    const tid = Number(task);
    if (examined.has(tid) || tid === process.pid) continue;
    examined.add(tid);
    try {
      const name = (await readFile(`/proc/self/task/${task}/comm`, 'utf8')).trim();
      if (name !== LIBVIPS_THREAD) continue;
      // Relative to what the thread has: a server started with `nice` keeps its images below itself.
      setPriority(tid, Math.min(NICEST, getPriority(tid) + IMAGE_WORK_NICENESS));
      await idlePolicy(tid);
    } catch {
      // Gone since the listing, or not ours to change.
    }
  }
}
