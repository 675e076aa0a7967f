import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthMeResponse } from '../../../common/api-contract.js';
import { authApi, LOCAL_USER } from '../api/auth-api.js';
import { useAccountLanguage } from './account-language.js';
import { chooseLanguage, currentLanguage, i18n, keepChosenLanguageWith, missingKeys } from './i18n-instance.js';
import { LANGUAGE_STORAGE_KEY } from './languages.js';

const ada: AuthMeResponse = { ...LOCAL_USER, via: 'session', name: 'ada', accounts_exist: true, language: 'de' };

afterEach(async () => {
  vi.restoreAllMocks();
  keepChosenLanguageWith(null);
  window.localStorage.removeItem(LANGUAGE_STORAGE_KEY);
  await act(() => i18n.changeLanguage('en'));
});

describe('the editor’s language per person', () => {
  it('signing in applies the account’s language, and the picker’s choice is kept on the account', async () => {
    const changeMe = vi.spyOn(authApi, 'changeMe').mockResolvedValue({ ...ada, language: 'fr' });
    const { unmount } = renderHook(() => useAccountLanguage(ada));
    await waitFor(() => expect(currentLanguage()).toBe('de'));
    expect(changeMe).not.toHaveBeenCalled();
    await act(() => chooseLanguage('fr'));
    expect(changeMe).toHaveBeenCalledWith({ language: 'fr' });
    // Signed out: choices stay on this machine.
    unmount();
    await act(() => chooseLanguage('es'));
    expect(changeMe).toHaveBeenCalledTimes(1);
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('es');
  });

  it('keeps the choice on this machine alone without a session, or when the account cannot take it now', async () => {
    const changeMe = vi.spyOn(authApi, 'changeMe').mockRejectedValue(new Error('the server is away'));
    renderHook(() => useAccountLanguage(LOCAL_USER));
    await act(() => chooseLanguage('de'));
    expect(changeMe).not.toHaveBeenCalled();
    renderHook(() => useAccountLanguage({ ...ada, language: null }));
    await act(() => chooseLanguage('fr'));
    expect(changeMe).toHaveBeenCalledWith({ language: 'fr' });
    expect(currentLanguage()).toBe('fr');
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('fr');
  });

  it('notes a key no catalog has, for the browser checks', () => {
    i18n.t('common:no.such.key' as 'common:actions.cancel');
    expect(missingKeys).toContain('common:no.such.key');
    expect((window as Window & { quireMissingKeys?: readonly string[] }).quireMissingKeys).toBe(missingKeys);
  });
});
