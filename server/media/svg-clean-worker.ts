import { parentPort } from 'node:worker_threads';
import { cleanSvgText, type SvgCleaning } from './svg-cleaner.js';

/**
 * The SVG cleaning worker's entry (svg-sanitizer.ts starts it by its path): cleans each text it is
 * sent and answers with the result, or with why cleaning threw.
 */

/** A request: the text to clean, under the id its answer carries. */
export interface SvgCleanRequest {
  id: number;
  text: string;
}

/** An answer: what cleaning gave, or the error it threw. */
export interface SvgCleanAnswer {
  id: number;
  answer: SvgCleaning | { failed: string };
}

parentPort?.on('message', ({ id, text }: SvgCleanRequest) => {
  let answer: SvgCleanAnswer['answer'];
  try {
    answer = cleanSvgText(text);
  } catch (error) {
    answer = { failed: String((error instanceof Error && error.stack) || error) };
  }
  parentPort?.postMessage({ id, answer } satisfies SvgCleanAnswer);
});
