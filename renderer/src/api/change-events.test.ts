import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ChangeEntry, listenToChanges } from './change-events.js';

const change: ChangeEntry = {
  cursor: 'MS4x',
  type: 'news',
  id: 'a',
  action: 'update',
  at: '2026-01-02T09:00:00.000Z',
  by: 'ada',
};

afterEach(() => {
  sessionStorage.clear();
  vi.unstubAllGlobals();
});

describe('the editor’s event stream with an API token', () => {
  it('is read by fetch with the token, and tells listeners of each change', async () => {
    sessionStorage.setItem('quire.apiToken', 'qt_secret');
    const sent = `: connected\n\nid: ${change.cursor}\nevent: change\ndata: ${JSON.stringify(change)}\n\n: heartbeat\n\n`;
    const fetched = vi.fn(
      async () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode(sent));
            },
          }),
          { status: 200, headers: { 'Content-Type': 'text/event-stream' } },
        ),
    );
    vi.stubGlobal('fetch', fetched);
    const heard: ChangeEntry[] = [];
    const stop = listenToChanges((entry) => heard.push(entry));
    try {
      await vi.waitFor(() => expect(heard).toEqual([change]));
      const [url, init] = fetched.mock.calls[0] as unknown as [string, RequestInit];
      expect(url).toBe('/api/events');
      expect((init.headers as Record<string, string>).Authorization).toBe('Bearer qt_secret');
    } finally {
      stop();
    }
  });
});
