import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseOption } from '../test-support/ui-controls.js';
import { chooseLanguage, currentLanguage, i18n } from './i18n-instance.js';
import { LanguagePicker } from './language-picker.js';
import { browserLanguage, initialLanguage, LANGUAGE_STORAGE_KEY } from './languages.js';

afterEach(async () => {
  window.localStorage.removeItem(LANGUAGE_STORAGE_KEY);
  await act(() => i18n.changeLanguage('en'));
});

describe('the editor’s language', () => {
  it('starts in the first browser language it speaks, else English', () => {
    expect(browserLanguage(['nl-NL', 'de-AT', 'en'])).toBe('de');
    expect(browserLanguage(['FR'])).toBe('fr');
    expect(browserLanguage(['nl', 'ja'])).toBe('en');
    expect(browserLanguage([])).toBe('en');
  });

  it('prefers the language chosen on this machine, and ignores what storage holds that it does not speak', () => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, 'es');
    expect(initialLanguage()).toBe('es');
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, 'klingon');
    expect(initialLanguage()).toBe(browserLanguage(navigator.languages));
  });

  it('switches from the picker, remembers the choice and marks the document', async () => {
    render(<LanguagePicker />);
    await chooseOption(userEvent.setup(), screen.getByLabelText('Language'), 'Deutsch');
    await waitFor(() => expect(currentLanguage()).toBe('de'));
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('de');
    expect(document.documentElement.lang).toBe('de');
    expect((await screen.findByLabelText('Sprache')).textContent).toBe('Deutsch');
  });

  it('falls back to English for a key a language would lack', async () => {
    await act(() => chooseLanguage('fr'));
    expect(i18n.t('common:language.label')).toBe('Langue');
    expect(i18n.t('common:time.justNow', { lng: 'en' })).toBe('just now');
  });
});
