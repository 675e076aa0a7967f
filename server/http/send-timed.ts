import type { Response } from 'express';
import { PhaseTimer } from '../content/phase-timer.js';
import type { Timing } from '../contract/api-contract.js';

/** Sends a read response with its timing object also as a `Server-Timing` header. */
export function sendTimed(res: Response, timer: PhaseTimer, build: (time: Timing) => object): void {
  const time = timer.result();
  res.setHeader('Server-Timing', PhaseTimer.header(time));
  res.json(build(time));
}
