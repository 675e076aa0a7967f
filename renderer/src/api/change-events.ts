import { useEffect, useRef } from 'react';
import type { ChangeEntry } from '../../../common/change-contract.js';
import { sessionTokenStore } from './auth-token.js';

export type { ChangeEntry };

/** What hears the editor's changes. */
export type ChangeListener = (change: ChangeEntry) => void;

/** How long to wait before opening the stream again after the server closed or refused it. */
const RETRY_MS = 3000;

const listeners = new Set<ChangeListener>();
let source: { close(): void } | null = null;
let retry: ReturnType<typeof setTimeout> | null = null;
/** The cursor of the last change heard: a stream opened again resumes after it. */
let lastCursor: string | null = null;

/**
 * The editor's one stream of `GET /api/events`, open while anything listens. The session's cookie
 * goes with it (same origin); an EventSource cannot send a header, so with an API token the stream
 * is read by fetch instead. A dropped connection is resumed with `Last-Event-ID`; a stream the
 * server ended or refused (a restart, too many streams) is opened again after a pause from the last
 * cursor heard, so no change in between is missed.
 */
export function listenToChanges(listener: ChangeListener): () => void {
  listeners.add(listener);
  if (listeners.size === 1) open();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) close();
  };
}

function open(): void {
  const token = sessionTokenStore().get();
  if (token !== null) {
    openWithToken(token);
    return;
  }
  if (typeof EventSource === 'undefined') return;
  const url = lastCursor === null ? '/api/events' : `/api/events?since=${encodeURIComponent(lastCursor)}`;
  const stream = new EventSource(url);
  source = stream;
  stream.addEventListener('change', (event) => hear((event as MessageEvent<string>).data));
  stream.addEventListener('error', () => {
    // CONNECTING: the browser is resuming by itself; CLOSED: it gave up, so try again later.
    if (stream.readyState === EventSource.CLOSED && source === stream) openLater();
  });
}

/** Tells every listener of a change event's data. */
function hear(data: string): void {
  const change = JSON.parse(data) as ChangeEntry;
  lastCursor = change.cursor;
  for (const listener of listeners) listener(change);
}

/** Opens the stream again after a pause, if anything still listens. */
function openLater(): void {
  source = null;
  retry = setTimeout(() => {
    retry = null;
    if (listeners.size > 0) open();
  }, RETRY_MS);
}

/** The stream read by fetch, with the token as `Authorization`; a refused token is not tried again. */
function openWithToken(token: string): void {
  const controller = new AbortController();
  const handle = { close: () => controller.abort() };
  source = handle;
  const headers: Record<string, string> = { Accept: 'text/event-stream', Authorization: `Bearer ${token}` };
  if (lastCursor !== null) headers['Last-Event-ID'] = lastCursor;
  void (async () => {
    const response = await fetch('/api/events', { headers, signal: controller.signal, credentials: 'same-origin' });
    if (response.status === 401 || response.status === 403) return false;
    if (!response.ok || !response.body) return true;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return true;
      text += decoder.decode(value, { stream: true });
      const blocks = text.split('\n\n');
      text = blocks.pop() ?? '';
      for (const block of blocks) {
        const lines = block.split('\n');
        const data = lines.find((line) => line.startsWith('data: '));
        if (lines.includes('event: change') && data) hear(data.slice('data: '.length));
      }
    }
  })()
    .catch(() => true)
    .then((again) => {
      if (again && source === handle && !controller.signal.aborted) openLater();
    });
}

function close(): void {
  source?.close();
  source = null;
  if (retry) clearTimeout(retry);
  retry = null;
}

/** Calls `listener` with each change saved anywhere while the component is shown. */
export function useChanges(listener: ChangeListener): void {
  const current = useRef(listener);
  current.current = listener;
  useEffect(() => listenToChanges((change) => current.current(change)), []);
}
