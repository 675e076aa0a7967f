import type { Response } from 'express';

/** A read's answer: its JSON body and its `Server-Timing` header value (the `time` object's figures). */
export interface TimedRead<T> {
  body: T;
  serverTiming: string;
}

/** Sends a read response with its timing object also as a `Server-Timing` header. */
export function sendTimed(res: Response, read: TimedRead<object>): void {
  res.setHeader('Server-Timing', read.serverTiming);
  res.json(read.body);
}
