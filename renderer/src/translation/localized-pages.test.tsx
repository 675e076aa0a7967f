import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentRow, WriteBody } from '../../../common/api-contract.js';
import type { LocalesDocument } from '../../../common/locale-contract.js';
import type { ApiClient, RowQuery } from '../api/client.js';
import { EditorApp } from '../app.js';
import { fakeApi, listOf, rowOf, typeOf } from '../test-support/fake-api.js';
import { chooseOption } from '../test-support/ui-controls.js';
import { choiceKey } from './content-locale.js';

const NEWS = typeOf(
  'news',
  [
    { name: 'title', label: 'Title', type: 'text', required: true, localized: true },
    { name: 'body', label: 'Body', type: 'textarea', required: false, localized: true },
    {
      name: 'status',
      label: 'Status',
      type: 'select',
      required: true,
      options: [
        { id: 'draft', text: 'Draft' },
        { id: 'published', text: 'Published' },
      ],
    },
  ],
  { title: 'News' },
);

const TWO_LOCALES: LocalesDocument = {
  default: 'en',
  locales: [
    { code: 'en', label: 'English' },
    { code: 'de', label: 'Deutsch', fallback: ['en'] },
  ],
};

/** The row as each locale reads it: English holds both fields; German only its own body. */
const READS: Record<string, ContentRow> = {
  en: rowOf({ id: 'r1', title: 'Harbour', body: 'Boats', status: 'draft', locale: 'en', fallbacks: {} }),
  de: rowOf({ id: 'r1', title: 'Harbour', body: 'Boote', status: 'draft', locale: 'de', fallbacks: { title: 'en' } }),
};

/** `GET /api/locales` answers `document`; any other request fails the test. */
function serveLocales(document: LocalesDocument) {
  const fetched = vi.fn(async (url: string) => {
    if (url === '/api/locales') {
      return new Response(JSON.stringify(document), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }
    throw new Error(`not expected in this test: ${url}`);
  });
  vi.stubGlobal('fetch', fetched);
  return fetched;
}

/** The title input, its locale marks (what describes it), and its placeholder. */
function titleField() {
  const input = screen.getByLabelText('Title') as HTMLInputElement;
  const marks = document.getElementById('field-title-marks');
  return { input, marks: marks?.textContent ?? null, placeholder: input.placeholder };
}

/** A row's read as `GET /api/cms/:type/:id` answers it, with its ETag. */
const readOf = (row: ContentRow, etag: string) => ({
  ...listOf([row]),
  meta: { title: '', description: '', keywords: '' },
  etag,
});

/** A row API reading READS by locale; `updateRow` answers what the test gives. */
function rowApi(updateRow?: ApiClient['updateRow']) {
  const getRow = vi.fn(async (_type: string, _id: string, _signal?: AbortSignal, locale?: string) =>
    readOf(READS[locale ?? 'en'], `"${locale ?? 'en'}"`),
  );
  return { getRow, api: fakeApi([NEWS], { getRow, ...(updateRow ? { updateRow } : {}) }) };
}

beforeEach(() => {
  window.localStorage.clear();
  window.history.replaceState(null, '', '/news/rows/r1');
});
afterEach(() => vi.unstubAllGlobals());

describe('the row editor of a type with translatable fields', () => {
  it('reads the row in the remembered locale; a field that falls back is empty, with its fallback as placeholder and a badge', async () => {
    serveLocales(TWO_LOCALES);
    window.localStorage.setItem(choiceKey('content', null), 'de');
    const { api, getRow } = rowApi();
    render(<EditorApp client={api} />);
    await screen.findByRole('combobox', { name: 'Content language' });
    await waitFor(() => expect(titleField().placeholder).toBe('Harbour'));
    expect(getRow).toHaveBeenCalledWith('news', 'r1', expect.anything(), 'de');
    expect(titleField().input.value).toBe('');
    expect(titleField().marks).toBe('DEDeutschfrom English');
    expect(titleField().input.getAttribute('aria-describedby')).toContain('field-title-marks');
    // Required in the default locale only: no required mark while translating.
    const titleFrame = document.getElementById('field-title-marks')?.closest('.field');
    expect(titleFrame?.querySelector('.required-mark')).toBeNull();
    // A value of its own: the locale's tag, no badge, no placeholder.
    expect((screen.getByLabelText('Body') as HTMLTextAreaElement).value).toBe('Boote');
    expect(document.getElementById('field-body-marks')?.textContent).toBe('DEDeutsch');
    // A shared field: a change there changes every locale.
    expect(document.getElementById('field-status-marks')?.textContent).toBe(
      'All languages A change here changes every language.',
    );
    // The heading names the row by the title it falls back to.
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Harbour');
  });

  it('saves in the locale; a cleared field is sent empty and shows its fallback and badge again after the save', async () => {
    serveLocales(TWO_LOCALES);
    window.localStorage.setItem(choiceKey('content', null), 'de');
    const updateRow = vi.fn(async (_type: string, _id: string | null, body: WriteBody) => {
      const row =
        body.title === 'Hafen'
          ? rowOf({ ...READS.de, title: 'Hafen', fallbacks: {} })
          : rowOf({ ...READS.de, title: 'Hafen', body: 'Boats', fallbacks: { body: 'en' } });
      return { row, etag: '"v2"' };
    });
    const { api } = rowApi(updateRow);
    const user = userEvent.setup();
    render(<EditorApp client={api} />);
    await waitFor(() => expect(titleField().placeholder).toBe('Harbour'));

    await user.type(titleField().input, 'Hafen');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(updateRow).toHaveBeenCalledTimes(1));
    expect(updateRow).toHaveBeenLastCalledWith('news', 'r1', { title: 'Hafen' }, '"de"', 'de');
    await waitFor(() => expect(titleField().marks).toBe('DEDeutsch'));
    expect(titleField().input.value).toBe('Hafen');

    await user.clear(screen.getByLabelText('Body'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(updateRow).toHaveBeenCalledTimes(2));
    expect(updateRow).toHaveBeenLastCalledWith('news', 'r1', { body: null }, '"v2"', 'de');
    const body = (await screen.findByPlaceholderText('Boats')) as HTMLTextAreaElement;
    expect(body.value).toBe('');
    expect(document.getElementById('field-body-marks')?.textContent).toBe('DEDeutschfrom English');
  });

  it('switches the locale from the header and remembers it; with unsaved edits it asks first', async () => {
    serveLocales(TWO_LOCALES);
    const { api, getRow } = rowApi();
    const user = userEvent.setup();
    render(<EditorApp client={api} />);
    await waitFor(() => expect(titleField().input.value).toBe('Harbour'));
    expect(getRow).toHaveBeenLastCalledWith('news', 'r1', expect.anything(), 'en');
    expect(titleField().marks).toBe('ENEnglish');

    await chooseOption(user, screen.getByRole('combobox', { name: 'Content language' }), 'Deutsch');
    await waitFor(() => expect(titleField().placeholder).toBe('Harbour'));
    expect(getRow).toHaveBeenLastCalledWith('news', 'r1', expect.anything(), 'de');
    expect(window.localStorage.getItem(choiceKey('content', null))).toBe('de');

    await user.type(screen.getByLabelText('Body'), ' am Kai');
    await chooseOption(user, screen.getByRole('combobox', { name: 'Content language' }), 'English');
    const dialog = await screen.findByRole('alertdialog', { name: 'Discard unsaved changes?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep editing' }));
    expect((screen.getByLabelText('Body') as HTMLTextAreaElement).value).toBe('Boote am Kai');
    expect(window.localStorage.getItem(choiceKey('content', null))).toBe('de');

    await chooseOption(user, screen.getByRole('combobox', { name: 'Content language' }), 'English');
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect((screen.getByLabelText('Body') as HTMLTextAreaElement).value).toBe('Boats'));
    expect(window.localStorage.getItem(choiceKey('content', null))).toBe('en');
  });

  it('side by side shows each translatable field’s value in the source locale beside it', async () => {
    serveLocales(TWO_LOCALES);
    window.localStorage.setItem(choiceKey('content', null), 'de');
    const { api, getRow } = rowApi();
    const user = userEvent.setup();
    render(<EditorApp client={api} />);
    const toggle = await screen.findByRole('button', { name: 'Side by side' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    // The source is the first locale of German's fallback chain, read as that locale reads the row.
    expect(screen.getByRole('combobox', { name: 'Source language' }).textContent).toBe('English');
    const body = await screen.findByRole('figure', { name: /^Body/ });
    await waitFor(() => expect(within(body).getByText('Boats')).toBeTruthy());
    expect(within(screen.getByRole('figure', { name: /^Title/ })).getByText('Harbour')).toBeTruthy();
    expect(getRow).toHaveBeenCalledWith('news', 'r1', expect.anything(), 'en');
    expect(screen.queryByRole('figure', { name: /^Status/ })).toBeNull();
    expect(window.localStorage.getItem(choiceKey('source', null))).toBe('en');

    await user.click(toggle);
    expect(screen.queryByRole('figure')).toBeNull();
  });

  it('creates a new row in the default locale, where its required fields are, then opens it in the chosen one', async () => {
    serveLocales(TWO_LOCALES);
    window.localStorage.setItem(choiceKey('content', null), 'de');
    window.history.replaceState(null, '', '/news/new');
    const createRow = vi.fn(async () => ({ id: 'r1', rows: [READS.en] }));
    const { api, getRow } = rowApi();
    api.createRow = createRow;
    const user = userEvent.setup();
    render(<EditorApp client={api} />);
    const switcher = await screen.findByRole('combobox', { name: 'Content language' });
    expect(switcher.textContent).toBe('English');
    expect((switcher as HTMLButtonElement).disabled).toBe(true);
    expect(switcher.title).toBe('A new row is written in English first.');
    expect(screen.queryByRole('button', { name: 'Side by side' })).toBeNull();
    await user.type(titleField().input, 'Harbour');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(createRow).toHaveBeenCalledWith('news', { title: 'Harbour', status: 'draft' }, 'en'));
    await waitFor(() => expect(titleField().placeholder).toBe('Harbour'));
    expect(getRow).toHaveBeenLastCalledWith('news', 'r1', expect.anything(), 'de');
    expect(screen.getByRole('combobox', { name: 'Content language' }).textContent).toBe('Deutsch');
  });

  it('on a site with one locale reads and writes as before: no switcher, no marks, no locale sent', async () => {
    serveLocales({ default: 'en', locales: [{ code: 'en', label: 'English' }] });
    const { api, getRow } = rowApi();
    render(<EditorApp client={api} />);
    await waitFor(() => expect(titleField().input.value).toBe('Harbour'));
    expect(getRow).toHaveBeenCalledWith('news', 'r1', expect.anything(), undefined);
    expect(screen.queryByRole('combobox', { name: 'Content language' })).toBeNull();
    expect(titleField().marks).toBeNull();
  });

  it('does not ask for the site’s locales for a type without translatable fields', async () => {
    const fetched = serveLocales(TWO_LOCALES);
    const plain = typeOf('notes', [{ name: 'title', label: 'Title', type: 'text', required: true }]);
    window.history.replaceState(null, '', '/notes/rows/n1');
    const getRow = vi.fn(async () => readOf(rowOf({ id: 'n1', title: 'Plain' }), '"n1"'));
    render(<EditorApp client={fakeApi([plain], { getRow })} />);
    await waitFor(() => expect(titleField().input.value).toBe('Plain'));
    expect(fetched).not.toHaveBeenCalledWith('/api/locales', expect.anything());
    expect(screen.queryByRole('combobox', { name: 'Content language' })).toBeNull();
  });
});

describe('the list of a type with translatable fields', () => {
  it('reads in the chosen locale and narrows to the rows missing a translation', async () => {
    serveLocales(TWO_LOCALES);
    window.localStorage.setItem(choiceKey('content', null), 'de');
    window.history.replaceState(null, '', '/news');
    const listRows = vi.fn(async (_type: string, query: RowQuery) =>
      listOf(query.locale === 'de' ? [READS.de] : [READS.en]),
    );
    const user = userEvent.setup();
    render(<EditorApp client={fakeApi([NEWS], { listRows })} />);
    await screen.findByRole('cell', { name: 'Harbour' });
    expect(listRows).toHaveBeenLastCalledWith('news', expect.objectContaining({ locale: 'de' }), expect.anything());

    await chooseOption(user, screen.getByLabelText('Translation'), 'Missing in Deutsch');
    await waitFor(() =>
      expect(listRows).toHaveBeenLastCalledWith(
        'news',
        expect.objectContaining({ locale: 'de', filter: ['missing:de'] }),
        expect.anything(),
      ),
    );
    expect(new URL(window.location.href).searchParams.get('f.locale.missing')).toBe('de');

    await chooseOption(user, screen.getByRole('combobox', { name: 'Content language' }), 'English');
    await waitFor(() =>
      expect(listRows).toHaveBeenLastCalledWith(
        'news',
        expect.objectContaining({ locale: 'en', filter: ['missing:de'] }),
        expect.anything(),
      ),
    );
    expect(window.localStorage.getItem(choiceKey('content', null))).toBe('en');
  });

  it('ignores a "missing in" link naming a locale the site does not list', async () => {
    serveLocales(TWO_LOCALES);
    window.history.replaceState(null, '', '/news?f.locale.missing=fr');
    const listRows = vi.fn(async () => listOf([READS.en]));
    render(<EditorApp client={fakeApi([NEWS], { listRows })} />);
    await screen.findByRole('cell', { name: 'Harbour' });
    expect(listRows).toHaveBeenLastCalledWith(
      'news',
      expect.objectContaining({ locale: 'en', filter: [] }),
      expect.anything(),
    );
  });
});
