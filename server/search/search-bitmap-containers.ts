/** The groups (containers) of a PostingBitmap and the operations on them (see search-posting-bitmap.ts). */

/** Members above which a group switches from a sorted array to a bitmap (where both cost 8 KiB). */
export const ARRAY_MAX = 4096;
/** 32-bit words of a dense group's bitmap. */
export const BITMAP_WORDS = 2048;

/** One group: the low 16 bits of members sharing the same high 16 bits. */
export interface Container {
  /** Members in this group. */
  size: number;
  /** Sorted low bits while `size <= ARRAY_MAX` (capacity may exceed `size`), else null. */
  array: Uint16Array | null;
  /** 2,048 words of 32 bits when the group is dense, else null. */
  bits: Uint32Array | null;
}

/** Code units of one slab (1 MiB): see `packed`. */
const SLAB_UNITS = 1 << 19;
/** Arrays above this many members get their own buffer rather than a slab's room. */
const SLAB_MAX = 1 << 12;
let slab = new Uint16Array(0);
let slabUsed = 0;

/**
 * The first `size` members of `array` in a view of a shared slab: a finished group's array (see
 * PostingBitmap.trimGroups) then costs no ArrayBuffer of its own: a large index holds many such
 * arrays, and an ArrayBuffer each (its object, backing store and the extension every full GC
 * sweeps) would be a good part of its memory. A view that must grow later is copied out
 * (PostingBitmap.add), and a slab is freed once no view of it is left.
 */
export function packed(array: Uint16Array, size: number): Uint16Array {
  if (size > SLAB_MAX) return array.slice(0, size);
  if (slabUsed + size > slab.length) {
    slab = new Uint16Array(SLAB_UNITS);
    slabUsed = 0;
  }
  const view = slab.subarray(slabUsed, slabUsed + size);
  view.set(array.subarray(0, size));
  slabUsed += size;
  return view;
}

/** Set bits of a 32-bit word. */
export function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Position of `low` in the sorted first `size` entries of `array`, or -(insertion point) - 1. */
export function search(array: Uint16Array, size: number, low: number): number {
  let from = 0;
  let to = size - 1;
  while (from <= to) {
    const middle = (from + to) >>> 1;
    const value = array[middle];
    if (value < low) from = middle + 1;
    else if (value > low) to = middle - 1;
    else return middle;
  }
  return -from - 1;
}

/** Turns an array group into a bitmap group. */
export function toBitmap(container: Container): void {
  const bits = new Uint32Array(BITMAP_WORDS);
  const array = container.array as Uint16Array;
  for (let i = 0; i < container.size; i++) bits[array[i] >>> 5] |= 1 << (array[i] & 31);
  container.bits = bits;
  container.array = null;
}

/** The members of a bitmap group as a sorted array. */
export function toArray(bits: Uint32Array, size: number): Uint16Array {
  const array = new Uint16Array(size);
  let n = 0;
  for (let w = 0; w < BITMAP_WORDS; w++) {
    let word = bits[w];
    while (word !== 0) {
      const lowest = word & -word;
      array[n++] = (w << 5) | (31 - Math.clz32(lowest));
      word ^= lowest;
    }
  }
  return array;
}

/** A container from a bitmap of `size` members: kept as bits when dense, else as an exact array. */
export function fromBits(bits: Uint32Array, size: number): Container | null {
  if (size === 0) return null;
  if (size > ARRAY_MAX) return { size, array: null, bits };
  return { size, array: toArray(bits, size), bits: null };
}

/** The members of two groups of the same high bits that both hold. */
export function andContainers(left: Container, right: Container): Container | null {
  if (left.bits && right.bits) {
    const x = left.bits;
    const y = right.bits;
    let size = 0;
    for (let w = 0; w < BITMAP_WORDS; w++) size += popcount(x[w] & y[w]);
    if (size === 0) return null;
    if (size > ARRAY_MAX) {
      const bits = new Uint32Array(BITMAP_WORDS);
      for (let w = 0; w < BITMAP_WORDS; w++) bits[w] = x[w] & y[w];
      return { size, array: null, bits };
    }
    // A sparse result is written as its array straight away (no 8 KiB bitmap in between).
    const array = new Uint16Array(size);
    let n = 0;
    for (let w = 0; w < BITMAP_WORDS; w++) {
      let word = x[w] & y[w];
      while (word !== 0) {
        const lowest = word & -word;
        array[n++] = (w << 5) | (31 - Math.clz32(lowest));
        word ^= lowest;
      }
    }
    return { size, array, bits: null };
  }
  if (left.bits || right.bits) {
    const [sparse, dense] = left.bits ? [right, left] : [left, right];
    const array = sparse.array as Uint16Array;
    const bits = dense.bits as Uint32Array;
    const kept = new Uint16Array(sparse.size);
    let size = 0;
    for (let i = 0; i < sparse.size; i++) {
      const low = array[i];
      if ((bits[low >>> 5] & (1 << (low & 31))) !== 0) kept[size++] = low;
    }
    return size === 0 ? null : { size, array: kept.slice(0, size), bits: null };
  }
  const x = left.array as Uint16Array;
  const y = right.array as Uint16Array;
  const kept = new Uint16Array(Math.min(left.size, right.size));
  let size = 0;
  let i = 0;
  let j = 0;
  while (i < left.size && j < right.size) {
    if (x[i] < y[j]) i++;
    else if (x[i] > y[j]) j++;
    else {
      kept[size++] = x[i];
      i++;
      j++;
    }
  }
  return size === 0 ? null : { size, array: kept.slice(0, size), bits: null };
}

/** The members of `left` that `right` (of the same high bits) does not hold. */
export function andNotContainers(left: Container, right: Container | undefined): Container | null {
  if (left.bits) {
    const bits = left.bits.slice();
    if (right?.bits) for (let w = 0; w < BITMAP_WORDS; w++) bits[w] &= ~right.bits[w];
    else if (right?.array)
      for (let i = 0; i < right.size; i++) bits[right.array[i] >>> 5] &= ~(1 << (right.array[i] & 31));
    let size = 0;
    for (let w = 0; w < BITMAP_WORDS; w++) size += popcount(bits[w]);
    return fromBits(bits, size);
  }
  const array = left.array as Uint16Array;
  const kept = new Uint16Array(left.size);
  let size = 0;
  for (let i = 0; i < left.size; i++) {
    const low = array[i];
    const taken = right?.bits
      ? (right.bits[low >>> 5] & (1 << (low & 31))) !== 0
      : right?.array
        ? search(right.array, right.size, low) >= 0
        : false;
    if (!taken) kept[size++] = low;
  }
  return size === 0 ? null : { size, array: kept.slice(0, size), bits: null };
}

/** An independent copy of a group. */
export function copyOf(container: Container): Container {
  return {
    size: container.size,
    array: container.array ? container.array.slice(0, container.size) : null,
    bits: container.bits ? container.bits.slice() : null,
  };
}

/** The union of one group of several bitmaps (null when all are empty), made as a bitmap. */
export function union(containers: readonly (Container | undefined)[]): Container | null {
  const bits = new Uint32Array(BITMAP_WORDS);
  for (const container of containers) {
    if (container === undefined) continue;
    if (container.bits) {
      for (let w = 0; w < BITMAP_WORDS; w++) bits[w] |= container.bits[w];
    } else {
      const array = container.array as Uint16Array;
      for (let i = 0; i < container.size; i++) bits[array[i] >>> 5] |= 1 << (array[i] & 31);
    }
  }
  let size = 0;
  for (let w = 0; w < BITMAP_WORDS; w++) size += popcount(bits[w]);
  return fromBits(bits, size);
}
