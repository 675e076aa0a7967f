/**
 * The binary form of a saved in-memory search index (sqlite-search-snapshot.ts): numbers, strings
 * and typed arrays written one after another, each starting at a multiple of 4 bytes, so that on
 * load the index's arrays are views of the one buffer the file was read into (no copy, no
 * ArrayBuffer each: the index at 1M rows holds several hundred thousand arrays).
 *
 * Written here rather than with `v8.serialize`: Node's serializer copies every typed array into a
 * buffer of its own on the way back, and class instances would come back as plain objects.
 */

/** Bytes of one chunk of the writer's output. */
const CHUNK = 1 << 20;

/** Writes a snapshot into chunks (see the module comment). */
export class SnapshotWriter {
  private readonly chunks: Uint8Array[] = [];
  private chunk = Buffer.alloc(CHUNK);
  private at = 0;
  private written = 0;

  /** An unsigned 32-bit integer. */
  u32(value: number): void {
    this.room(4);
    this.chunk.writeUInt32LE(value >>> 0, this.at);
    this.at += 4;
  }

  /** Any JavaScript number (rowids, keys past 32 bits). */
  f64(value: number): void {
    this.room(8);
    this.chunk.writeDoubleLE(value, this.at);
    this.at += 8;
  }

  /** A string, exactly (its UTF-16 code units: lone surrogates survive). */
  string(value: string): void {
    this.u32(value.length);
    const bytes = value.length * 2;
    if (bytes === 0) return;
    this.room(bytes);
    this.chunk.write(value, this.at, 'utf16le');
    this.at += bytes;
    this.align();
  }

  /** The first `length` units of a Uint16Array (the reader must be told the length). */
  u16s(array: Uint16Array, length = array.length): void {
    this.raw(new Uint8Array(array.buffer, array.byteOffset, length * 2));
  }

  /** A Uint32Array's units (the reader must be told the length). */
  u32s(array: Uint32Array, length = array.length): void {
    this.raw(new Uint8Array(array.buffer, array.byteOffset, length * 4));
  }

  /** Bytes (the reader must be told the length). */
  bytes(bytes: Uint8Array): void {
    this.raw(bytes);
  }

  /** Everything written, as chunks to write out in order (valid until the next write). */
  finish(): Uint8Array[] {
    this.flushChunk();
    return this.chunks;
  }

  /** Bytes written so far. */
  get length(): number {
    return this.written + this.at;
  }

  private raw(bytes: Uint8Array): void {
    if (bytes.length > CHUNK / 4) {
      // Large arrays go out as they are (the caller writes the file before anything changes).
      this.flushChunk();
      this.chunks.push(bytes);
      this.written += bytes.length;
    } else {
      this.room(bytes.length);
      this.chunk.set(bytes, this.at);
      this.at += bytes.length;
    }
    this.align();
  }

  private align(): void {
    const pad = (4 - (this.length % 4)) % 4;
    if (pad === 0) return;
    this.room(pad);
    this.chunk.fill(0, this.at, this.at + pad);
    this.at += pad;
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.chunk.length) return;
    this.flushChunk();
    this.chunk = Buffer.alloc(Math.max(CHUNK, bytes));
  }

  private flushChunk(): void {
    if (this.at === 0) return;
    this.chunks.push(this.chunk.subarray(0, this.at));
    this.written += this.at;
    this.at = 0;
    this.chunk = Buffer.alloc(CHUNK);
  }
}

/** Thrown for a snapshot that ends early or holds what its writer never wrote. */
export class SnapshotFormatError extends Error {}

/** Reads what a SnapshotWriter wrote, from one buffer (see the module comment). */
export class SnapshotReader {
  private readonly view: DataView;
  private at: number;

  /** Reads `buffer` (a whole ArrayBuffer: its views must start at multiples of 4 bytes). */
  constructor(
    private readonly buffer: ArrayBuffer,
    offset = 0,
    private readonly end = buffer.byteLength,
    view?: DataView,
  ) {
    this.view = view ?? new DataView(buffer);
    this.at = offset;
  }

  /** Another reader from where this one is (for reading that part later). */
  fork(): SnapshotReader {
    return new SnapshotReader(this.buffer, this.at, this.end, this.view);
  }

  /** Passes over `bytes` bytes (and the padding after them). */
  skip(bytes: number): void {
    this.need(bytes);
    this.at += bytes;
    this.align();
  }

  u32(): number {
    this.need(4);
    const value = this.view.getUint32(this.at, true);
    this.at += 4;
    return value;
  }

  f64(): number {
    this.need(8);
    const value = this.view.getFloat64(this.at, true);
    this.at += 8;
    return value;
  }

  string(): string {
    const length = this.u32();
    if (length === 0) return '';
    const bytes = length * 2;
    this.need(bytes);
    const value = Buffer.from(this.buffer, this.at, bytes).toString('utf16le');
    this.at += bytes;
    this.align();
    return value;
  }

  /** A view of `length` Uint16 units. */
  u16s(length: number): Uint16Array {
    this.need(length * 2);
    const array = new Uint16Array(this.buffer, this.at, length);
    this.at += length * 2;
    this.align();
    return array;
  }

  /** A view of `length` Uint32 units. */
  u32s(length: number): Uint32Array {
    this.need(length * 4);
    const array = new Uint32Array(this.buffer, this.at, length);
    this.at += length * 4;
    return array;
  }

  /** A Buffer view of `length` bytes. */
  bytes(length: number): Buffer {
    this.need(length);
    const bytes = Buffer.from(this.buffer, this.at, length);
    this.at += length;
    this.align();
    return bytes;
  }

  /** Where the reader is in its buffer. */
  get offset(): number {
    return this.at;
  }

  /** Whether everything was read. */
  get done(): boolean {
    return this.at === this.end;
  }

  private align(): void {
    this.at += (4 - (this.at % 4)) % 4;
  }

  private need(bytes: number): void {
    if (this.at + bytes > this.end) throw new SnapshotFormatError('the search index snapshot ends early');
  }
}
