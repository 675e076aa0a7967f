import { useEffect, useRef } from 'react';
import type { ChangeEntry } from '../../../server/changes/change-feed.js';

export type { ChangeEntry };

/** What hears the editor's changes. */
export type ChangeListener = (change: ChangeEntry) => void;

/** How long to wait before opening the stream again after the server closed or refused it. */
const RETRY_MS = 3000;

const listeners = new Set<ChangeListener>();
let source: EventSource | null = null;
let retry: ReturnType<typeof setTimeout> | null = null;
/** The cursor of the last change heard: a stream opened again resumes after it. */
let lastCursor: string | null = null;

/**
 * The editor's one stream of `GET /api/events`, open while anything listens. The session's cookie
 * goes with it (same origin). A dropped connection is resumed by the browser with `Last-Event-ID`;
 * a stream the server ended or refused (a restart, too many streams) is opened again after a pause
 * with `since` the last cursor heard, so no change in between is missed.
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
  if (typeof EventSource === 'undefined') return;
  const url = lastCursor === null ? '/api/events' : `/api/events?since=${encodeURIComponent(lastCursor)}`;
  const stream = new EventSource(url);
  source = stream;
  stream.addEventListener('change', (event) => {
    const change = JSON.parse((event as MessageEvent<string>).data) as ChangeEntry;
    lastCursor = change.cursor;
    for (const listener of listeners) listener(change);
  });
  stream.addEventListener('error', () => {
    // CONNECTING: the browser is resuming by itself; CLOSED: it gave up, so try again later.
    if (stream.readyState !== EventSource.CLOSED || source !== stream) return;
    source = null;
    retry = setTimeout(() => {
      retry = null;
      if (listeners.size > 0) open();
    }, RETRY_MS);
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
