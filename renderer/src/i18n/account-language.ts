import { useEffect } from 'react';
import type { AuthMeResponse } from '../../../common/api-contract.js';
import { authApi } from '../api/auth-api.js';
import { applyLanguage, currentLanguage, keepChosenLanguageWith } from './i18n-instance.js';

/**
 * The signed-in person's language: signing in (on any machine) switches to the one their account
 * keeps, and while they are signed in the picker's choice is kept on the account too. Without a
 * session (no accounts, a token) the choice stays on this machine.
 */
export function useAccountLanguage(me: AuthMeResponse | null): void {
  const person = me?.via === 'session' && me.name !== null ? me.name : null;
  const kept = me?.language ?? null;
  useEffect(() => {
    if (person === null) return;
    if (kept !== null && kept !== currentLanguage()) void applyLanguage(kept);
    keepChosenLanguageWith((language) => authApi.changeMe({ language }));
    return () => keepChosenLanguageWith(null);
  }, [person, kept]);
}
