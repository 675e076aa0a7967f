// What a round trip to a worker thread costs on this machine: the main thread hands a worker one
// message and awaits its answer, `count` times in a row, as a write worker fed statement by
// statement would (a SQLite create is three statements and a savepoint's two inside the batch).
// It prints the wall time and this process's CPU (both threads) per round trip, for a MessagePort
// (postMessage, structured clone) and for a SharedArrayBuffer handoff (Atomics.notify, with
// Atomics.waitAsync on the main thread, which must not block): what a SQLite write worker would add
// to each write, to weigh against the CPU a create's own statements cost SQLite.
//
//   node bench/thread-round-trip.mjs [--count 20000]
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';

/** The worker: answers each message at once; or, on the shared flags, each handoff. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
if (workerData) {
  const flags = new Int32Array(workerData);
  for (;;) {
    Atomics.wait(flags, 0, 0);
    if (Atomics.load(flags, 2) === 1) break;
    Atomics.store(flags, 0, 0);
    Atomics.store(flags, 1, 1);
    Atomics.notify(flags, 1);
  }
} else {
  parentPort.on('message', (message) => parentPort.postMessage({ id: message.id, rows: [{ changes: 1 }] }));
}
`;

/** A statement as a write worker would be sent one (its SQL and parameters). */
const STATEMENT = {
  sql: 'insert into "news" ("id", "title", "slug", "status", "published_at") values (?, ?, ?, ?, ?)',
  parameters: ['01a21e44-a06c-745e-b115-fb388b6c1234', 'A title', 'a-title', 'draft', '2024-01-02 03:04:05'],
};

/** Runs `roundTrip` `count` times in a row: µs of wall time and of process CPU each. */
async function timed(count, roundTrip) {
  for (let i = 0; i < Math.min(1000, count); i++) await roundTrip(i);
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i++) await roundTrip(i);
  const wallUs = ((performance.now() - started) * 1000) / count;
  const used = process.cpuUsage(cpu);
  return { wallUs, cpuUs: (used.user + used.system) / count };
}

/** Round trips through a MessagePort (the worker's `postMessage`). */
async function messagePort(count) {
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  const waiting = new Map();
  worker.on('message', (message) => {
    waiting.get(message.id)(message);
    waiting.delete(message.id);
  });
  try {
    return await timed(count, (id) => {
      const answered = new Promise((resolve) => waiting.set(id, resolve));
      worker.postMessage({ id, ...STATEMENT });
      return answered;
    });
  } finally {
    await worker.terminate();
  }
}

/** Round trips through shared memory: Atomics.notify to the worker, Atomics.waitAsync for its answer. */
async function sharedMemory(count) {
  const shared = new SharedArrayBuffer(12);
  const flags = new Int32Array(shared);
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: shared });
  try {
    return await timed(count, async () => {
      Atomics.store(flags, 1, 0);
      Atomics.store(flags, 0, 1);
      Atomics.notify(flags, 0);
      const answer = Atomics.waitAsync(flags, 1, 0);
      if (answer.async) await answer.value;
    });
  } finally {
    Atomics.store(flags, 2, 1);
    Atomics.store(flags, 0, 1);
    Atomics.notify(flags, 0);
    await worker.terminate();
  }
}

/** Both measurements: `{ messagePort, sharedMemory }`, each `{ wallUs, cpuUs }` a round trip. */
export async function measureRoundTrips(count) {
  return { messagePort: await messagePort(count), sharedMemory: await sharedMemory(count) };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { count: { type: 'string', default: '20000' } } });
  const results = await measureRoundTrips(Number(values.count));
  for (const [name, { wallUs, cpuUs }] of Object.entries(results)) {
    console.log(`${name}: ${wallUs.toFixed(1)} µs a round trip, ${cpuUs.toFixed(1)} µs of CPU (both threads)`);
  }
}
