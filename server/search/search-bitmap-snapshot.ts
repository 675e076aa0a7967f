/**
 * The snapshot form of a PostingBitmap's groups (search-posting-bitmap.ts), in a saved index
 * (search-snapshot-codec.ts): their count, then each group's high 16 bits (with DENSE for a dense
 * one), its size and its members, as a sorted array of low bits or as the bitmap's words.
 */

import { ARRAY_MAX, BITMAP_WORDS, type Container } from './search-bitmap-containers.js';
import { SnapshotFormatError, type SnapshotReader, type SnapshotWriter } from './search-snapshot-codec.js';

/** Marks a dense group in the written form of a bitmap (`writeGroups`), beside its high 16 bits. */
const DENSE = 0x10000;

/** Writes a bitmap's groups (a sparse array by high 16 bits) for `skipGroups` and `readGroups`. */
export function writeGroups(out: SnapshotWriter, containers: readonly (Container | undefined)[]): void {
  let groups = 0;
  for (const container of containers) if (container !== undefined) groups++;
  out.u32(groups);
  containers.forEach((container, high) => {
    if (container === undefined) return;
    // A dense group stays dense after removals (PostingBitmap.remove never turns it back into an
    // array).
    out.u32(container.bits ? high | DENSE : high);
    out.u32(container.size);
    if (container.bits) out.u32s(container.bits);
    else out.u16s(container.array as Uint16Array, container.size);
  });
}

/**
 * Checks the groups `writeGroups` wrote and passes over them (`readGroups` reads them from a fork
 * taken before): the number of members they hold.
 */
export function skipGroups(input: SnapshotReader): number {
  const groups = input.u32();
  let members = 0;
  let previous = -1;
  for (let k = 0; k < groups; k++) {
    const group = input.u32();
    const high = group & 0xffff;
    const size = input.u32();
    // `writeGroups` writes groups in increasing order of their high bits.
    if (group & ~(0xffff | DENSE) || size === 0 || size > (group & DENSE ? 65536 : ARRAY_MAX) || high <= previous) {
      throw new SnapshotFormatError('a posting group is out of range');
    }
    previous = high;
    input.skip(group & DENSE ? BITMAP_WORDS * 4 : size * 2);
    members += size;
  }
  return members;
}

/**
 * Reads the groups `writeGroups` wrote (checked by `skipGroups`) into `groups`, as views of the
 * input's buffer.
 */
export function readGroups(input: SnapshotReader, groups: (Container | undefined)[]): void {
  for (let left = input.u32(); left > 0; left--) {
    const group = input.u32();
    const size = input.u32();
    groups[group & 0xffff] =
      group & DENSE
        ? { size, array: null, bits: input.u32s(BITMAP_WORDS) }
        : { size, array: input.u16s(size), bits: null };
  }
}
