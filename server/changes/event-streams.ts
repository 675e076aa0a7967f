import { AppError } from '../errors/app-error.js';
import type { ChangeEntry, ChangeFeed } from './change-feed.js';

/**
 * The open event streams of one server (`GET /api/events`) and what feeds them. Streams wait at a
 * cursor of the change feed; when the feed says something committed (its `subscribe`, which hears
 * this server's commits and, where servers share the database, looks for the others') the hub
 * reads each cursor the streams wait at once, unfiltered, and hands every stream the changes its
 * filter takes. Streams nearly always wait at the same cursor (the newest), so a write costs one
 * feed read however many streams are open; a stream whose cursor lies inside a page just read is
 * served from that page.
 *
 * A stream's cursor is where it has read to, so a filtered stream moves past changes it does not
 * take; an event's `id:` is that change's cursor, which is why `Last-Event-ID` resumes without
 * loss. Memory per stream is bounded: a stream whose socket has not taken what it was given waits
 * (its cursor stays) until the socket drains, and one that stays full is cut off.
 */

/** Where a stream's text goes: node's ServerResponse is one. */
export interface EventSink {
  write(chunk: string): boolean;
  /** Bytes given to the sink and not yet taken by the socket. */
  readonly writableLength: number;
  end(): void;
  destroy(): void;
  once(event: 'close' | 'drain', listener: () => void): unknown;
}

/** How many streams may be open at once. */
export interface EventStreamLimits {
  /** By one credential (one session, one API token, the local user). */
  perCredential: number;
  /** On this server. */
  total: number;
}

/** The limits without `--event-streams` and `--event-streams-per-credential`. */
export const DEFAULT_EVENT_STREAM_LIMITS: EventStreamLimits = { perCredential: 100, total: 2000 };

/** How the hub runs; every member but `feed` has a default. */
export interface EventHubOptions {
  feed: ChangeFeed;
  limits?: Partial<EventStreamLimits>;
  /** Between heartbeat comments, which keep proxies from closing a quiet stream. */
  heartbeatMs?: number;
  /** Changes per feed read. */
  pageSize?: number;
  /** Unsent bytes past which a stream is cut off; above a quarter of it a stream waits for its socket. */
  maxBufferedBytes?: number;
  /** How long a stream may wait for its socket to drain before it is cut off. */
  stallMs?: number;
  /** Where failed feed reads are reported (streams stay open and are served at the next signal). */
  log?: (message: string, error: unknown) => void;
}

/** One stream to open. */
export interface EventStreamRequest {
  /** Who opens it, for the per-credential limit (see `credentialKey` in event-routes.ts). */
  credential: string;
  /** Whether the stream takes changes of a type (its table). */
  accepts: (type: string) => boolean;
  /** The cursor to resume after (`Last-Event-ID` or `?since=`), or null for changes from now on. */
  since: string | null;
  sink: EventSink;
  /** Called once the stream is accepted, before its first byte: the route sends its head here. */
  start: () => void;
  /**
   * Whether the credential still holds (a session not ended, a token not revoked or expired), asked
   * at each heartbeat: a stream outlives neither, since it may carry changes for hours.
   */
  stillValid?: () => Promise<boolean>;
}

interface Stream {
  credential: string;
  stillValid: (() => Promise<boolean>) | undefined;
  accepts: (type: string) => boolean;
  sink: EventSink;
  /** Where the stream has read to. */
  cursor: string;
  /** Since when the stream has waited for its socket to drain, or null. */
  waitingSince: number | null;
}

const DEFAULTS = {
  heartbeatMs: 15_000,
  pageSize: 500,
  maxBufferedBytes: 1024 * 1024,
  stallMs: 30_000,
};

/** The text of one change as an event. */
function changeFrame(change: ChangeEntry): string {
  return `id: ${change.cursor}\nevent: change\ndata: ${JSON.stringify(change)}\n\n`;
}

/** The text of an error as an event: the one error shape as its data. */
export function errorFrame(error: AppError): string {
  return `event: error\ndata: ${JSON.stringify(error.toBody())}\n\n`;
}

/** Whether a failed read is the stream's own (its cursor is expired or unknown), not the database's. */
function isCursorRefusal(error: unknown): error is AppError {
  return error instanceof AppError && error.status >= 400 && error.status < 500;
}

/** The open streams and their deliveries; one per server, built in app.ts. */
export class EventHub {
  private readonly feed: ChangeFeed;
  private readonly limits: EventStreamLimits;
  private readonly pageSize: number;
  private readonly maxBufferedBytes: number;
  private readonly stallMs: number;
  private readonly log: (message: string, error: unknown) => void;
  private readonly streams = new Set<Stream>();
  private readonly perCredential = new Map<string, number>();
  /** Streams accepted and not yet started (their first read is under way), counted against the limits. */
  private opening = 0;
  private delivering = false;
  /** A read of the feed failed and none has succeeded since. */
  private failing = false;
  private again = false;
  private closed = false;
  /** Stops hearing from the feed; set while streams are open. */
  private unsubscribe: (() => void) | null = null;
  private readonly heartbeatMs: number;
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(options: EventHubOptions) {
    this.feed = options.feed;
    this.limits = { ...DEFAULT_EVENT_STREAM_LIMITS, ...options.limits };
    this.pageSize = options.pageSize ?? DEFAULTS.pageSize;
    this.maxBufferedBytes = options.maxBufferedBytes ?? DEFAULTS.maxBufferedBytes;
    this.stallMs = options.stallMs ?? DEFAULTS.stallMs;
    this.log = options.log ?? ((message, error) => console.error(message, error));
    this.heartbeatMs = options.heartbeatMs ?? DEFAULTS.heartbeatMs;
  }

  /** Streams open now. */
  get size(): number {
    return this.streams.size;
  }

  /**
   * Opens a stream: refuses it with a 429 past the limits, and with the feed's error (400
   * `bad_cursor`, 410 `cursor_expired`) for a cursor it cannot resume from, before `start`. Then
   * sends what committed after `since` and keeps the stream until its sink closes.
   */
  async open(request: EventStreamRequest): Promise<void> {
    if (this.closed) throw new AppError('database_unavailable', 'The server is stopping: connect again in a moment');
    this.reserve(request.credential);
    // Heard from before the first read, so a commit between that read and the stream's start is told.
    if (this.unsubscribe === null) this.follow();
    let closedEarly = false;
    request.sink.once('close', () => {
      closedEarly = true;
    });
    let cursor: string;
    let first: ChangeEntry[] = [];
    try {
      if (request.since === null) cursor = await this.feed.head();
      else {
        const page = await this.feed.read({ since: request.since, limit: this.pageSize });
        first = page.changes;
        cursor = page.next;
      }
    } catch (error) {
      this.opening--;
      this.release(request.credential);
      throw error;
    }
    this.opening--;
    if (closedEarly || this.closed) {
      this.release(request.credential);
      if (this.closed) request.sink.end();
      return;
    }
    const stream: Stream = {
      credential: request.credential,
      stillValid: request.stillValid,
      accepts: request.accepts,
      sink: request.sink,
      cursor,
      waitingSince: null,
    };
    this.streams.add(stream);
    request.sink.once('close', () => this.drop(stream));
    request.start();
    request.sink.write(': connected\n\n');
    if (first.length > 0) this.send(stream, first.map(changeFrame), first, 0, cursor);
    // A full first page leaves more to read; and a change may have committed during the first read.
    this.signal();
  }

  /** Ends every stream and stops following the feed (the server is stopping). */
  close(): void {
    this.closed = true;
    for (const stream of [...this.streams]) {
      this.drop(stream);
      stream.sink.end();
    }
  }

  /** Counts a new stream against the limits, or refuses it with a 429. */
  private reserve(credential: string): void {
    const open = this.streams.size + this.opening;
    if (open >= this.limits.total) {
      throw new AppError(
        'too_many_requests',
        `This server has ${open} event streams open, the most it takes: try again later`,
        undefined,
        { code: 'too_many', max: this.limits.total, of: 'event_streams' },
      );
    }
    const mine = this.perCredential.get(credential) ?? 0;
    if (mine >= this.limits.perCredential) {
      throw new AppError(
        'too_many_requests',
        `This credential has ${mine} event streams open, the most it may: close one first`,
        undefined,
        { code: 'too_many', max: this.limits.perCredential, of: 'event_streams_of_credential' },
      );
    }
    this.perCredential.set(credential, mine + 1);
    this.opening++;
  }

  /** Frees a stream's place; the last one gone, the hub stops following the feed. */
  private release(credential: string): void {
    const mine = (this.perCredential.get(credential) ?? 1) - 1;
    if (mine > 0) this.perCredential.set(credential, mine);
    else this.perCredential.delete(credential);
    if (this.streams.size === 0 && this.opening === 0) this.unfollow();
  }

  private drop(stream: Stream): void {
    if (!this.streams.delete(stream)) return;
    this.release(stream.credential);
  }

  /**
   * Hears from the feed and beats while streams are open (the feed's `subscribe` is how other
   * servers' writes arrive; it looks for them only while someone listens).
   */
  private follow(): void {
    this.unsubscribe = this.feed.subscribe(() => this.signal());
    this.heartbeat = setInterval(() => this.beat(), this.heartbeatMs);
    this.heartbeat.unref();
  }

  private unfollow(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  /** Cuts a stream off: its socket closes without waiting for what it holds. */
  private cut(stream: Stream): void {
    this.drop(stream);
    stream.sink.destroy();
  }

  /** Something may have committed: deliver it, after whatever delivery is under way. */
  private signal(): void {
    if (this.closed) return;
    this.again = true;
    if (this.delivering) return;
    this.delivering = true;
    void this.deliver();
  }

  /** Delivery rounds until one finds nothing more to read (and no signal came meanwhile). */
  private async deliver(): Promise<void> {
    while (this.again && !this.closed) {
      this.again = false;
      try {
        await this.round();
        this.failing = false;
      } catch (error) {
        // The database is away: the streams stay where they are and the next signal retries.
        this.failed(error);
      }
    }
    this.delivering = false;
  }

  /** Reports a failed read of the feed, once until a read succeeds again. */
  private failed(error: unknown): void {
    if (this.failing) return;
    this.failing = true;
    this.log('Event streams could not read the change feed (they are served once it answers):', error);
  }

  /** One read per cursor that streams wait at, and what it finds handed to each. */
  private async round(): Promise<void> {
    const waiting = new Map<string, Stream[]>();
    for (const stream of this.streams) {
      if (stream.waitingSince !== null) continue;
      const group = waiting.get(stream.cursor);
      if (group) group.push(stream);
      else waiting.set(stream.cursor, [stream]);
    }
    while (waiting.size > 0 && !this.closed) {
      const [since, group] = waiting.entries().next().value as [string, Stream[]];
      let page: Awaited<ReturnType<ChangeFeed['read']>>;
      try {
        page = await this.feed.read({ since, limit: this.pageSize });
      } catch (error) {
        if (!isCursorRefusal(error)) throw error;
        // Its changes were purged meanwhile: the stream is told so (the client reads everything again).
        for (const stream of group) this.end(stream, error);
        waiting.delete(since);
        continue;
      }
      if (page.changes.length >= this.pageSize) this.again = true;
      const positions = new Map(page.changes.map((change, index) => [change.cursor, index]));
      const frames = page.changes.map(changeFrame);
      for (const [cursor, streams] of waiting) {
        const from = cursor === since ? 0 : (positions.get(cursor) ?? -1) + 1;
        if (from === 0 && cursor !== since) continue;
        waiting.delete(cursor);
        for (const stream of streams) {
          if (this.streams.has(stream) && stream.cursor === cursor)
            this.send(stream, frames, page.changes, from, page.next);
        }
      }
    }
  }

  /** Writes the changes from `from` on that the stream takes, moves it to `next`, and minds its socket. */
  private send(stream: Stream, frames: string[], changes: ChangeEntry[], from: number, next: string): void {
    let text = '';
    for (let i = from; i < changes.length; i++) if (stream.accepts(changes[i].type)) text += frames[i];
    stream.cursor = next;
    if (text !== '') stream.sink.write(text);
    this.mind(stream);
  }

  /** Cuts a stream holding too much; lets one holding some wait for its socket before it gets more. */
  private mind(stream: Stream): void {
    const unsent = stream.sink.writableLength;
    if (unsent > this.maxBufferedBytes) this.cut(stream);
    else if (unsent > this.maxBufferedBytes / 4 && stream.waitingSince === null) {
      stream.waitingSince = Date.now();
      stream.sink.once('drain', () => {
        stream.waitingSince = null;
        if (this.streams.has(stream)) this.signal();
      });
    }
  }

  /** Tells a stream why it ends, then ends it. */
  private end(stream: Stream, error: AppError): void {
    this.drop(stream);
    stream.sink.write(errorFrame(error));
    stream.sink.end();
  }

  /**
   * A heartbeat comment on every stream; a stream that has waited for its socket too long is cut
   * off, and one whose credential no longer holds is told so and ended.
   */
  private beat(): void {
    const now = Date.now();
    for (const stream of [...this.streams]) {
      if (stream.waitingSince === null) {
        stream.sink.write(': heartbeat\n\n');
        this.mind(stream);
      } else if (now - stream.waitingSince > this.stallMs) this.cut(stream);
      stream.stillValid?.().then(
        (valid) => {
          if (!valid && this.streams.has(stream)) {
            this.end(
              stream,
              new AppError(
                'unauthorized',
                'The credential of this stream has ended: sign in or use a valid token, then connect again',
              ),
            );
          }
        },
        (error: unknown) => this.log('An event stream credential could not be checked', error),
      );
    }
  }
}
