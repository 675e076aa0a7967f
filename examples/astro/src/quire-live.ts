/**
 * `astro dev` sees each save: while the dev server runs against a Quire server, this integration
 * listens to its event stream and asks Astro to run the Quire loaders again, which read only the
 * changes since their cursor (see quire-loader.ts). A build, or a site read from an export, is
 * left alone.
 */
import type { AstroIntegration } from 'astro';
import { followsFeed, serverEvents } from './quire-source';

/** How long saves are gathered into one refresh, and how long to wait before listening again. */
const GATHER_MS = 200;
const RETRY_MS = 3000;

export function quireLive(): AstroIntegration {
  const stop = new AbortController();
  return {
    name: 'quire-live',
    hooks: {
      'astro:server:setup': ({ refreshContent, logger }) => {
        if (!refreshContent || !followsFeed) return;
        let gathering = false;
        const refresh = () => {
          if (gathering) return;
          gathering = true;
          setTimeout(() => {
            gathering = false;
            refreshContent({ loaders: ['quire:types', 'quire:rows'] }).catch((error: Error) =>
              logger.warn(`refreshing Quire's content failed: ${error.message}`),
            );
          }, GATHER_MS);
        };
        void listen(stop.signal, refresh, (message) => logger.warn(message));
      },
      'astro:server:done': () => stop.abort(),
    },
  };
}

/** Calls `changed` for each change the stream brings, opening it again after a pause when it ends. */
async function listen(signal: AbortSignal, changed: () => void, warn: (message: string) => void): Promise<void> {
  while (!signal.aborted) {
    try {
      const response = await serverEvents(signal);
      if (!response.ok || !response.body) throw new Error(`GET /api/events: ${response.status}`);
      const decoder = new TextDecoder();
      let text = '';
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        const blocks = text.split('\n\n');
        text = blocks.pop() ?? '';
        if (blocks.some((block) => block.split('\n').includes('event: change'))) changed();
      }
    } catch (error) {
      if (signal.aborted) return;
      warn(`listening to Quire's events: ${(error as Error).message}; trying again`);
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}
