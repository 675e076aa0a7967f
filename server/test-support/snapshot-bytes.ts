import { SnapshotWriter } from '../search/search-snapshot-codec.js';

/** What a writer wrote, in one fresh buffer (as a loader reads a saved index's file). */
export function written(write: (out: SnapshotWriter) => void): ArrayBuffer {
  const out = new SnapshotWriter();
  write(out);
  const chunks = out.finish();
  const buffer = new ArrayBuffer(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    new Uint8Array(buffer, at, chunk.length).set(chunk);
    at += chunk.length;
  }
  return buffer;
}
