/**
 * The binary form of a saved in-memory search index (sqlite-search-snapshot.ts,
 * postgres-search-snapshot.ts): numbers, strings and typed arrays written one after another, each
 * starting at a multiple of 4 bytes, so that on load the index's arrays are views of the one buffer
 * the file was read into (no copy, no ArrayBuffer each: a large index holds hundreds of thousands
 * of arrays).
 *
 * Written here rather than with `v8.serialize`: Node's serializer copies every typed array into a
 * buffer of its own on the way back, and class instances would come back as plain objects.
 *
 * Parts a loaded index may never need (the text kept to confirm candidates, a third of the file)
 * are written `later`: after everything else, the place of each noted where it belongs. The output
 * starts with the length of what comes before them, so a loader can read that first and leave the
 * rest unread (and out of memory) until a part of it is wanted (`LazyTail`).
 */

/** Bytes of one chunk of the writer's output. */
const CHUNK = 1 << 20;

/** Bytes of the output's start: the length of what precedes the parts written `later`. */
const HEAD = 8;

/** Writes a snapshot into chunks (see the module comment). */
export class SnapshotWriter {
  private readonly chunks: Uint8Array[] = [];
  private chunk = Buffer.alloc(CHUNK);
  private at = 0;
  private written = 0;
  /** Parts written `later`, with where their place and length go. */
  private readonly parts: { writer: SnapshotWriter; chunk: Buffer; at: number }[] = [];

  /** `part`: a part written `later`, which has no start of its own and no parts. */
  constructor(private readonly part = false) {
    if (!part) this.f64(0);
  }

  /**
   * A part of the snapshot written after everything else, read back by `SnapshotReader.later`
   * (where this is called) only when wanted. What is written into it must stay as it is until
   * `finish`.
   */
  later(): SnapshotWriter {
    if (this.part) throw new Error('a part written later has no parts of its own');
    const writer = new SnapshotWriter(true);
    this.room(16);
    this.parts.push({ writer, chunk: this.chunk, at: this.at });
    this.chunk.fill(0, this.at, this.at + 16);
    this.at += 16;
    return writer;
  }

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

  /** Everything written, as chunks to write out in order (call once; valid until the next write). */
  finish(): Uint8Array[] {
    this.flushChunk();
    if (this.part) return this.chunks;
    const head = this.chunks[0];
    new DataView(head.buffer, head.byteOffset, HEAD).setFloat64(0, this.written, true);
    for (const { writer, chunk, at } of this.parts) {
      const chunks = writer.finish();
      const place = new DataView(chunk.buffer, chunk.byteOffset + at, 16);
      place.setFloat64(0, this.written, true);
      place.setFloat64(8, writer.written, true);
      // Parts are written whole multiples of 4 bytes long (see align), so each starts aligned.
      this.chunks.push(...chunks);
      this.written += writer.written;
    }
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

/**
 * The bytes of a snapshot's parts written `later`, when they were left unread: `fill` reads them
 * all into their place in the buffer (once; it throws when they cannot be read).
 */
export interface LazyTail {
  fill(): void;
}

/** A part written `later`: `read` gives a reader of it, its bytes read first if they were not. */
export interface LaterPart {
  read(): SnapshotReader;
}

/** Reads what a SnapshotWriter wrote, from one buffer (see the module comment). */
export class SnapshotReader {
  private readonly view: DataView;
  private at: number;
  private readonly end: number;
  /** The whole buffer as a Buffer, once a string is read (see `utf16`). */
  private whole: Buffer | null = null;

  /**
   * Reads the snapshot in `buffer` (a whole ArrayBuffer: its views must start at multiples of 4
   * bytes), up to its parts written `later`, whose bytes `tail` reads when they are wanted (none:
   * they are in the buffer). `range`: a part of it (a fork, a part written later).
   */
  constructor(
    private readonly buffer: ArrayBuffer,
    private readonly tail: LazyTail | null = null,
    range?: { at: number; end: number; view: DataView },
  ) {
    this.view = range?.view ?? new DataView(buffer);
    if (range) {
      this.at = range.at;
      this.end = range.end;
      return;
    }
    if (buffer.byteLength < HEAD) throw new SnapshotFormatError('the search index snapshot ends early');
    const end = this.view.getFloat64(0, true);
    if (!(Number.isInteger(end) && end >= HEAD && end <= buffer.byteLength)) {
      throw new SnapshotFormatError('the search index snapshot has no valid start');
    }
    this.at = HEAD;
    this.end = end;
  }

  /** Another reader from where this one is (for reading that part later). */
  fork(): SnapshotReader {
    return new SnapshotReader(this.buffer, this.tail, { at: this.at, end: this.end, view: this.view });
  }

  /** The part written `later` here (see SnapshotWriter.later), not yet read. */
  later(): LaterPart {
    const at = this.f64();
    const length = this.f64();
    if (!(Number.isInteger(at) && Number.isInteger(length) && at >= HEAD && at + length <= this.buffer.byteLength)) {
      throw new SnapshotFormatError('a part of the search index snapshot is out of range');
    }
    const { buffer, tail, view } = this;
    return {
      read() {
        tail?.fill();
        return new SnapshotReader(buffer, null, { at, end: at + length, view });
      },
    };
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
    const value = this.utf16(this.at, bytes);
    this.at += bytes;
    this.align();
    return value;
  }

  /** Passes over a string, for `stringAt` to read when it is wanted. */
  skipString(): void {
    const length = this.u32();
    if (length > 0) this.skip(length * 2);
  }

  /**
   * The string at `offset` of the buffer: the `offset` a reader had where `skipString` then passed
   * over it (so it was checked to lie within the snapshot).
   */
  stringAt(offset: number): string {
    return this.utf16(offset + 4, this.view.getUint32(offset, true) * 2);
  }

  /**
   * `bytes` bytes at `at` as UTF-16 text, decoded from one Buffer over the whole snapshot: a Buffer
   * made for each string cost more than the decoding (a read-back index has tens of thousands).
   */
  private utf16(at: number, bytes: number): string {
    if (bytes === 0) return '';
    this.whole ??= Buffer.from(this.buffer);
    return this.whole.toString('utf16le', at, at + bytes);
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
