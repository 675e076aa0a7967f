import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { IMAGE_WORK_NICENESS, lowerImageWorkPriority } from './image-work-priority.js';

/** The threads whose name the module under test reads (the real `readFile` answers it). */
const namesRead = vi.hoisted(() => [] as number[]);
vi.mock('node:fs/promises', async (original) => {
  const real = await original<typeof import('node:fs/promises')>();
  return {
    ...real,
    readFile: (...args: Parameters<typeof real.readFile>) => {
      const comm = /^\/proc\/self\/task\/(\d+)\/comm$/.exec(String(args[0]));
      if (comm) namesRead.push(Number(comm[1]));
      return real.readFile(...args);
    },
  };
});

/** A worker thread, started (its own thread of this process). */
async function startedWorker(): Promise<Worker> {
  const worker = new Worker('setInterval(() => {}, 1000)', { eval: true });
  await new Promise((resolve) => worker.once('online', resolve));
  return worker;
}

/** Linux's idle scheduling policy, as /proc gives a thread's policy. */
const SCHED_IDLE = 5;

/** Whether util-linux's `chrt` is there to set it. */
const chrtFound = spawnSync('chrt', ['--version']).status === 0;

/** Each thread of this process: its name, nice value and scheduling policy, from /proc. */
function threads(): { tid: number; name: string; nice: number; policy: number }[] {
  return readdirSync('/proc/self/task').map((task) => {
    const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
    // Fields after the name, which is in parentheses: state is the first, nice the 17th, policy the 39th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const name = readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim();
    return { tid: Number(task), name, nice: Number(fields[16]), policy: Number(fields[38]) };
  });
}

describe('the CPU priority of image work', () => {
  it.skipIf(process.platform !== 'linux')(
    "lowers libvips' threads below the server's (nice, idle policy), once each, and leaves the others (Linux: threads in /proc)",
    async () => {
      await sharp({ create: { width: 64, height: 64, channels: 3, background: '#808080' } })
        .webp()
        .toBuffer();
      const before = threads();
      const main = before.find((thread) => thread.tid === process.pid);
      const libvips = before.filter((thread) => thread.name === 'libvips worker');
      expect(libvips.length).toBeGreaterThan(0);
      await lowerImageWorkPriority();
      await lowerImageWorkPriority();
      const after = new Map(threads().map((thread) => [thread.tid, thread]));
      for (const thread of libvips) {
        expect(after.get(thread.tid)?.nice).toBe(Math.min(19, thread.nice + IMAGE_WORK_NICENESS));
        // Where `chrt` is (util-linux), under the idle policy too.
        if (chrtFound) expect(after.get(thread.tid)?.policy).toBe(SCHED_IDLE);
      }
      expect(after.get(process.pid)?.nice).toBe(main?.nice);
      expect(after.get(process.pid)?.policy).toBe(main?.policy);
    },
  );

  it.skipIf(process.platform !== 'linux')(
    'reads the name of each new thread, also when as many threads ended meanwhile, and no other',
    async () => {
      await sharp({ create: { width: 32, height: 32, channels: 3, background: '#808080' } })
        .png()
        .toBuffer();
      const first = await startedWorker();
      // Each thread under another name is looked at twice (one just started may not have its name yet).
      await lowerImageWorkPriority();
      await lowerImageWorkPriority();
      namesRead.length = 0;
      await lowerImageWorkPriority();
      expect(namesRead).toEqual([]);

      // One thread ends and another starts: the count is as it was, the new thread is read.
      const tidsBefore = new Set(readdirSync('/proc/self/task').map(Number));
      await first.terminate();
      const second = await startedWorker();
      try {
        const started = readdirSync('/proc/self/task')
          .map(Number)
          .filter((tid) => !tidsBefore.has(tid));
        expect(started.length).toBeGreaterThan(0);
        await lowerImageWorkPriority();
        for (const tid of started) expect(namesRead).toContain(tid);
        expect(namesRead.every((tid) => started.includes(tid))).toBe(true);
      } finally {
        await second.terminate();
      }
    },
  );
});
