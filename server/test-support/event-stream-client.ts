import { request as httpRequest, type IncomingMessage } from 'node:http';

/** One event as a stream sent it. */
export interface ReceivedEvent {
  id: string | null;
  event: string;
  data: string;
}

/** An open `GET /api/events` as tests and the bench read it. */
export interface EventStreamClient {
  status: number;
  headers: IncomingMessage['headers'];
  /** Events so far (heartbeats and other comments are not events). */
  events: ReceivedEvent[];
  /** Comment lines so far, without their colon. */
  comments: string[];
  /** The body as received (a refusal's JSON, or the stream's text). */
  text(): string;
  /** Resolves once `count` events have arrived, or the stream has ended (then rejects). */
  waitFor(count: number): Promise<ReceivedEvent[]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** Drops the connection, as a client going away would. */
  close(): void;
}

/**
 * Opens an event stream and parses it as an EventSource would (the fields the server sends:
 * `id`, `event`, `data`, comments); resolves once the head has arrived, whatever its status.
 */
export function openEventStream(url: string, headers: Record<string, string> = {}): Promise<EventStreamClient> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      res.setEncoding('utf8');
      let body = '';
      let pending = '';
      const events: ReceivedEvent[] = [];
      const comments: string[] = [];
      let waiters: (() => void)[] = [];
      let done = false;
      const wake = () => {
        const woken = waiters;
        waiters = [];
        for (const waiter of woken) waiter();
      };
      const ended = new Promise<void>((resolveEnd) => {
        const finish = () => {
          done = true;
          wake();
          resolveEnd();
        };
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      });
      res.on('data', (chunk: string) => {
        body += chunk;
        pending += chunk;
        let at = pending.indexOf('\n\n');
        while (at >= 0) {
          const block = pending.slice(0, at);
          pending = pending.slice(at + 2);
          const event: ReceivedEvent = { id: null, event: 'message', data: '' };
          let isEvent = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else {
              const colon = line.indexOf(':');
              const field = colon < 0 ? line : line.slice(0, colon);
              const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
              isEvent = true;
              if (field === 'id') event.id = value;
              else if (field === 'event') event.event = value;
              else if (field === 'data') event.data = event.data === '' ? value : `${event.data}\n${value}`;
            }
          }
          if (isEvent) events.push(event);
          at = pending.indexOf('\n\n');
        }
        wake();
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        comments,
        text: () => body,
        ended,
        waitFor(count) {
          return new Promise((resolveWait, rejectWait) => {
            const check = () => {
              if (events.length >= count) resolveWait(events.slice(0, count));
              else if (done)
                rejectWait(new Error(`The stream ended after ${events.length} of ${count} events: ${body}`));
              else waiters.push(check);
            };
            check();
          });
        },
        close() {
          req.destroy();
        },
      });
    });
    req.on('error', reject);
    req.end();
  });
}
