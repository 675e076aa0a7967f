import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { AppError } from '../errors/app-error.js';

/**
 * Cleans an uploaded SVG so that nothing in it can run or reach anything, wherever it is shown
 * (opened directly, in an `<img>`, inlined by a site): DOMPurify with its SVG profiles does the
 * element and attribute allow-list (no `<script>`, event handlers, `<foreignObject>`, `<animate>`
 * or `<set>` retargeting `href`), on a document parsed as XML by jsdom; the hooks here go further
 * and keep only same-document references: every `href`/`xlink:href` and every CSS `url()` must be
 * a `#fragment` (no `http:`, `data:`, `javascript:` nor relative files), and CSS `@import`,
 * `expression(` or an escape empties the style it is in. A DOCTYPE with declarations of its own
 * (entities: the billion laughs) is refused before parsing; a plain one is dropped. What is left is
 * serialized as XML, so the stored bytes are exactly what was checked.
 *
 * Parsing and cleaning a large drawing takes seconds of CPU, so it runs in a worker thread (one,
 * started on the first SVG and not keeping the process alive), never on the server's own thread.
 * The worker is given `cleanSvgText`'s source: that function uses nothing but its parameters.
 */

/** Largest SVG accepted: a drawing, not a data dump; the parse holds the whole document in memory. */
export const MAX_SVG_BYTES = 1024 * 1024;

/** A jsdom or DOMPurify value: jsdom ships no types, and the server has no DOM lib. */
// biome-ignore lint/suspicious/noExplicitAny: see above
type Loose = any;

/** What cleaning gave: the cleaned text, or why the file is refused. */
export type SvgCleaning = { svg: string } | { refused: 'entities' | 'not_well_formed' | 'not_svg' | 'draws_nothing' };

/**
 * Cleans `text` with jsdom's `JSDOM` and DOMPurify's factory; `cache` keeps the window and purifier
 * between calls. Self-contained (its source runs in the worker): no import, constant or helper
 * from outside its body.
 */
export function cleanSvgText(
  text: string,
  JSDOM: Loose,
  createDOMPurify: Loose,
  cache: { purify?: Loose; window?: Loose },
): SvgCleaning {
  const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';
  const CSS_URL = /url\s*\(\s*(['"]?)([^'")]*)\1\s*\)/gi;
  // CSS that can load or run something: a url() not naming a fragment, @import, expression(...;
  // escapes and comments could hide a keyword from these checks, so they count too.
  const isDangerousCss = (css: string): boolean => {
    if (/\\|\/\*/.test(css)) return true;
    if (/@import|expression\s*\(|behavior\s*:|-moz-binding|javascript:/i.test(css)) return true;
    const urls = [...css.matchAll(CSS_URL)];
    if (urls.some((match) => !match[2].trim().startsWith('#'))) return true;
    return (css.match(/url\s*\(/gi)?.length ?? 0) !== urls.length;
  };
  if (!cache.purify) {
    const { window } = new JSDOM('<!DOCTYPE html>');
    const purify = createDOMPurify(window);
    // Only references inside the document stay (gradients, <use>, clip paths by #id).
    purify.addHook('afterSanitizeAttributes', (node: Loose) => {
      for (const attribute of [...(node.attributes ?? [])]) {
        const name = attribute.name.toLowerCase();
        const isReference = name === 'href' || name.endsWith(':href') || name === 'src';
        if (isReference && !attribute.value.trim().startsWith('#')) node.removeAttributeNode(attribute);
        else if ((name === 'style' || /url\s*\(/i.test(attribute.value)) && isDangerousCss(attribute.value)) {
          node.removeAttributeNode(attribute);
        }
      }
    });
    purify.addHook('uponSanitizeElement', (node: Loose, data: Loose) => {
      if (data.tagName === 'style' && isDangerousCss(node.textContent ?? '')) node.textContent = '';
    });
    cache.window = window;
    cache.purify = purify;
  }
  const source = text.replace(/^\uFEFF/, '');
  // Checked on the text: the parser would expand the entities a DOCTYPE declares before anything else.
  if (/<!ENTITY/i.test(source) || /<!DOCTYPE[^>[]*\[/i.test(source)) return { refused: 'entities' };
  const document = new cache.window.DOMParser().parseFromString(source, 'image/svg+xml');
  const root = document.documentElement;
  if (!root || root.localName === 'parsererror' || root.getElementsByTagNameNS('*', 'parsererror').length > 0) {
    return { refused: 'not_well_formed' };
  }
  if (root.namespaceURI !== SVG_NAMESPACE || root.localName !== 'svg') return { refused: 'not_svg' };
  cache.purify.sanitize(root, {
    USE_PROFILES: { svg: true, svgFilters: true },
    // Never allowed whatever the profiles say: each can load or run something, or carry HTML.
    FORBID_TAGS: ['script', 'foreignObject', 'iframe', 'embed', 'object', 'animate', 'set', 'handler', 'listener'],
    // `<use>` is left out of the profile for what it can fetch; with only #id references it draws a local shape.
    ADD_TAGS: ['use'],
    // A removed element goes with what is in it: a script under a prefix or in another namespace leaves no text.
    KEEP_CONTENT: false,
    IN_PLACE: true,
    SAFE_FOR_XML: true,
  });
  // The root stays (IN_PLACE cleans inside it); its own attributes were checked by the hook too.
  if (root.childElementCount === 0) return { refused: 'draws_nothing' };
  return {
    svg: `<?xml version="1.0" encoding="UTF-8"?>\n${new cache.window.XMLSerializer().serializeToString(root)}\n`,
  };
}

/** The worker (CommonJS, evaluated): cleans each text it is sent with `cleanSvgText`. */
function workerSource(): string {
  return `
const { parentPort, workerData } = require('node:worker_threads');
const { JSDOM } = require(workerData.jsdom);
const createDOMPurify = require(workerData.dompurify);
const cleanSvgText = ${cleanSvgText.toString()};
const cache = {};
parentPort.on('message', ({ id, text }) => {
  let answer;
  try {
    answer = cleanSvgText(text, JSDOM, createDOMPurify, cache);
  } catch (error) {
    answer = { failed: String(error && error.stack || error) };
  }
  parentPort.postMessage({ id, answer });
});
`;
}

type WorkerAnswer = SvgCleaning | { failed: string };

let worker: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, (answer: WorkerAnswer) => void>();

/** The cleaning worker, started on first use; one that failed or exited is replaced by the next call. */
function cleaningWorker(): Worker {
  if (worker) return worker;
  const resolve = createRequire(import.meta.url).resolve;
  const started = new Worker(workerSource(), {
    eval: true,
    workerData: { jsdom: resolve('jsdom'), dompurify: resolve('dompurify') },
    // A drawing that would need more than this is refused (the worker ends, the upload fails) rather than swelling the server.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  started.unref();
  const failAll = (reason: string) => {
    if (worker === started) worker = null;
    for (const [id, settle] of waiting) {
      waiting.delete(id);
      settle({ failed: reason });
    }
  };
  started.on('message', ({ id, answer }: { id: number; answer: WorkerAnswer }) => {
    const settle = waiting.get(id);
    waiting.delete(id);
    settle?.(answer);
    if (waiting.size === 0) started.unref();
  });
  started.on('error', (error) => failAll(String(error)));
  started.on('exit', (code) => failAll(`the SVG worker exited (${code})`));
  worker = started;
  return started;
}

const REFUSALS: Record<Extract<SvgCleaning, { refused: string }>['refused'], AppError> = {
  entities: new AppError(
    'bad_request',
    'The SVG declares entities in a DOCTYPE, which is not accepted; remove the DOCTYPE',
  ),
  not_well_formed: new AppError(
    'bad_request',
    'The SVG is not well-formed XML; fix or re-export it and upload it again',
  ),
  not_svg: new AppError(
    'unsupported_media_type',
    'The file is XML but not an SVG image (its root must be <svg xmlns="http://www.w3.org/2000/svg">)',
  ),
  draws_nothing: new AppError(
    'bad_request',
    'The SVG draws nothing once its script and outside references are removed; upload the drawing itself',
  ),
};

/**
 * The SVG `text` cleaned, as XML text, made in the worker (its size is checked before it is read:
 * MAX_SVG_BYTES). Refused: a text that is not well-formed XML or declares entities (400), a
 * document whose root is not an SVG `<svg>` element (415), and one that draws nothing once cleaned
 * (400: it was all script, and an empty drawing has no size to show or resize).
 */
export async function sanitizeSvg(text: string): Promise<string> {
  const running = cleaningWorker();
  const id = nextId++;
  const answer = await new Promise<WorkerAnswer>((settle) => {
    waiting.set(id, settle);
    running.ref();
    running.postMessage({ id, text });
  });
  if ('failed' in answer) throw new Error(`Cleaning the SVG failed: ${answer.failed}`);
  if ('refused' in answer) {
    const refusal = REFUSALS[answer.refused];
    throw new AppError(refusal.code, refusal.message);
  }
  return answer.svg;
}
