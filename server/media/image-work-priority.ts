import { readdir, readFile } from 'node:fs/promises';
import { getPriority, setPriority } from 'node:os';

/** How much nicer than the server libvips' threads run (lower CPU priority), so requests are answered first. */
export const IMAGE_WORK_NICENESS = 10;

/** The largest nice value there is. */
const NICEST = 19;

/** What libvips names its worker threads (Linux shows it in /proc/self/task/<tid>/comm). */
const LIBVIPS_THREAD = 'libvips worker';

/** Threads already looked at (lowered or not libvips'): each is read once. */
const examined = new Set<number>();

/**
 * Lowers the CPU priority of libvips' worker threads, where sharp does the pixel work, so that on a
 * busy machine the event loop (every other request) gets the cores first and images are made with
 * what is left. Linux schedules threads one by one, and names them in /proc, so this is done on
 * Linux only (elsewhere a no-op); libvips reuses its threads, so after the first images it finds
 * none new. A thread that cannot be changed is left as it is: this is a preference, not a limit.
 */
export async function lowerImageWorkPriority(): Promise<void> {
  if (process.platform !== 'linux') return;
  let tasks: string[];
  try {
    tasks = await readdir('/proc/self/task');
  } catch {
    return;
  }
  for (const task of tasks) {
    const tid = Number(task);
    if (examined.has(tid) || tid === process.pid) continue;
    examined.add(tid);
    try {
      const name = (await readFile(`/proc/self/task/${task}/comm`, 'utf8')).trim();
      if (name !== LIBVIPS_THREAD) continue;
      // Relative to what the thread has: a server started with `nice` keeps its images below itself.
      setPriority(tid, Math.min(NICEST, getPriority(tid) + IMAGE_WORK_NICENESS));
    } catch {
      // Gone since the listing, or not ours to change.
    }
  }
}
