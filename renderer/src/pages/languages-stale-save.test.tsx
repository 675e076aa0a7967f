import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LocalesDocument } from '../../../common/locale-contract.js';
import { ToastProvider } from '../components/toasts.js';
import { LanguagesPage } from './languages-page.js';

afterEach(() => vi.unstubAllGlobals());

const MINE: LocalesDocument = { default: 'en', locales: [{ code: 'en', label: 'English' }] };
const THEIRS: LocalesDocument = {
  default: 'en',
  locales: [
    { code: 'en', label: 'English' },
    { code: 'fr', label: 'Français', fallback: ['en'] },
  ],
};

const json = (body: unknown, status: number, etag?: string) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...(etag ? { ETag: etag } : {}) },
  });

/** A server whose locales someone else changed to THEIRS (ETag "b") after this admin read MINE (ETag "a"). */
function serverChangedMeanwhile() {
  const puts: { ifMatch: string | undefined; body: LocalesDocument }[] = [];
  const fetched = vi.fn(async (_url: string, init: RequestInit) => {
    if (init.method === 'GET') return json(MINE, 200, '"a"');
    const ifMatch = (init.headers as Record<string, string>)['If-Match'];
    const body = JSON.parse(init.body as string) as LocalesDocument;
    puts.push({ ifMatch, body });
    if (ifMatch !== '"b"') {
      return json(
        {
          error: {
            code: 'stale_write',
            message: 'The row changed since you read it',
            current: THEIRS,
            etag: '"b"',
            last_change: null,
          },
        },
        412,
      );
    }
    return json(body, 200, '"c"');
  });
  vi.stubGlobal('fetch', fetched);
  return puts;
}

describe('saving the languages', () => {
  it('sends the ETag it read in If-Match; a stale save shows the current languages and writes over them only after a reload', async () => {
    const puts = serverChangedMeanwhile();
    render(
      <ToastProvider>
        <LanguagesPage />
      </ToastProvider>,
    );
    const user = userEvent.setup();
    const [label] = await screen.findAllByLabelText('Label');
    await user.clear(label);
    await user.type(label, 'English (UK)');
    await user.click(screen.getByRole('button', { name: 'Save languages' }));

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Someone changed the languages meanwhile')).toBeTruthy();
    expect(
      within(alert)
        .getAllByTestId('current-locale')
        .map((item) => item.textContent),
    ).toEqual(['EnglishenDefaultNo fallback: only its own values.', 'FrançaisfrFalls back to English']);
    expect(puts).toEqual([
      { ifMatch: '"a"', body: { default: 'en', locales: [{ code: 'en', label: 'English (UK)' }] } },
    ]);
    expect((screen.getByRole('button', { name: 'Save languages' }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(within(alert).getByRole('button', { name: /Load the current languages/ }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getAllByTestId('locale').map((item) => item.getAttribute('data-locale'))).toEqual(['en', 'fr']);
    const [english] = screen.getAllByLabelText('Label');
    await user.clear(english);
    await user.type(english, 'English (UK)');
    await user.click(screen.getByRole('button', { name: 'Save languages' }));
    expect(await screen.findByText('Languages saved')).toBeTruthy();
    expect(puts.map((put) => put.ifMatch)).toEqual(['"a"', '"b"']);
    expect(puts[1].body.locales.map((locale) => locale.label)).toEqual(['English (UK)', 'Français']);
  });
});
