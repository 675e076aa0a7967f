import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { IMAGE_WORK_NICENESS, lowerImageWorkPriority } from './image-work-priority.js';

/** Counts the listings of a folder the module under test makes (the real `readdir` answers them). */
const listings = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:fs/promises', async (original) => {
  const real = await original<typeof import('node:fs/promises')>();
  return {
    ...real,
    readdir: (...args: Parameters<typeof real.readdir>) => {
      listings.count++;
      return real.readdir(...args);
    },
  };
});

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
    'lists the threads again only when their number has changed since the last listing',
    async () => {
      await sharp({ create: { width: 32, height: 32, channels: 3, background: '#808080' } })
        .png()
        .toBuffer();
      await lowerImageWorkPriority();
      const listed = listings.count;
      await lowerImageWorkPriority();
      await lowerImageWorkPriority();
      expect(listings.count).toBe(listed);

      // A thread more: listed again.
      const worker = new Worker('setInterval(() => {}, 1000)', { eval: true });
      try {
        await new Promise((resolve) => worker.once('online', resolve));
        await lowerImageWorkPriority();
        expect(listings.count).toBe(listed + 1);
      } finally {
        await worker.terminate();
      }
    },
  );
});
