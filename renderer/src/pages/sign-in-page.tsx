import { type FormEvent, useEffect, useState } from 'react';
import { MIN_PASSWORD_LENGTH } from '../../../common/access-rules.js';
import type { AuthMeResponse } from '../../../common/api-contract.js';
import {
  type AuthProvidersResponse,
  SINGLE_SIGN_ON_ERRORS,
  type SingleSignOnError,
} from '../../../common/single-sign-on-rules.js';
import { ApiError, describeError } from '../api/api-error.js';
import { authApi } from '../api/auth-api.js';
import { useDocumentTitle } from '../hooks/use-document-title.js';
import { i18n } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';

/**
 * Why a sign-in through the identity provider came back here (`?sso_error=CODE`), said as the
 * editor's own sentence (never the address's text), or null. The code leaves the address bar, so
 * a reload does not say it again.
 */
function takeSingleSignOnError(): string | null {
  const url = new URL(window.location.href);
  const code = url.searchParams.get('sso_error');
  if (code === null) return null;
  url.searchParams.delete('sso_error');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  // Any other text gets the general sentence, never shown as it is.
  const known: SingleSignOnError = Object.hasOwn(SINGLE_SIGN_ON_ERRORS, code)
    ? (code as SingleSignOnError)
    : 'sso_provider_error';
  return i18n.t(`pages-sign-in:sso.${known}`);
}

/**
 * The sign-in page, or on first run (a loopback server with no account yet) the form that makes
 * the first admin. Either way the server answers with who is now signed in. With an identity
 * provider, "Sign in with <provider>" leads there and back (signed in, or here with the reason);
 * with password sign-in off the form is not shown.
 */
export function SignInPage({
  firstRun,
  notice,
  onSignedIn,
}: {
  firstRun: boolean;
  /** Why the page shows (a session that ended), if there is a reason worth saying. */
  notice?: string | null;
  onSignedIn(me: AuthMeResponse): void;
}) {
  const t = useT('pages-sign-in');
  useDocumentTitle(firstRun ? t('firstRun.title') : t('title'));
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  // Offered once guesses have locked the name: with a second factor it can still sign in now.
  const [locked, setLocked] = useState(false);
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(() => (firstRun ? null : takeSingleSignOnError()));
  const [busy, setBusy] = useState(false);
  const [providers, setProviders] = useState<AuthProvidersResponse | null>(null);
  useEffect(() => {
    if (firstRun) return;
    // Without an answer the password form stays: it is what every Quire had before.
    authApi.providers().then(setProviders, () => setProviders(null));
  }, [firstRun]);
  const provider = firstRun ? null : (providers?.single_sign_on ?? null);
  const passwords = firstRun || providers?.password !== false;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (firstRun && password !== again) {
      setProblem(t('firstRun.differ'));
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      onSignedIn(
        firstRun
          ? await authApi.firstRun(name.trim(), password)
          : await authApi.signIn(name.trim(), password, locked ? code.trim() : undefined),
      );
    } catch (error) {
      if (!firstRun && error instanceof ApiError && error.status === 429) setLocked(true);
      setProblem(describeError(error));
      setBusy(false);
    }
  };

  return (
    <div className="sign-in">
      <form className="card sign-in-card" onSubmit={(event) => void submit(event)} aria-labelledby="sign-in-title">
        <div className="sign-in-brand">
          <img src="/favicon.svg" alt="" width={32} height={32} />
          <span className="brand-name">{t('common:product')}</span>
        </div>
        <h1 id="sign-in-title" className="page-title">
          {firstRun ? t('firstRun.title') : t('title')}
        </h1>
        <p className="page-subtitle">
          {firstRun ? t('firstRun.intro') : passwords ? t('introPassword') : t('introProvider')}
        </p>
        {(problem ?? notice) && (
          <div className={`banner ${problem ? 'banner-error' : ''}`} role={problem ? 'alert' : 'status'}>
            <span className="banner-text">{problem ?? notice}</span>
          </div>
        )}
        {provider && (
          // A plain link: the browser itself goes to the provider and comes back signed in.
          <a className={`button ${passwords ? '' : 'button-primary'} sign-in-provider`} href={provider.start_url}>
            {t('withProvider', { provider: provider.name })}
          </a>
        )}
        {provider && passwords && <p className="sign-in-or">{t('orPassword')}</p>}
        {passwords && (
          <>
            <label className="label" htmlFor="sign-in-name">
              {t('name')}
            </label>
            <input
              id="sign-in-name"
              className="input"
              autoComplete="username"
              value={name}
              onChange={(event) => setName(event.target.value)}
              required
            />
            <label className="label" htmlFor="sign-in-password">
              {t('password')}
            </label>
            <input
              id="sign-in-password"
              className="input"
              type="password"
              autoComplete={firstRun ? 'new-password' : 'current-password'}
              minLength={firstRun ? MIN_PASSWORD_LENGTH : undefined}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              required
            />
            {locked && (
              <>
                <label className="label" htmlFor="sign-in-code">
                  {t('code')}
                </label>
                <p className="field-hint" id="sign-in-code-hint">
                  {t('codeHint')}
                </p>
                <input
                  id="sign-in-code"
                  className="input"
                  autoComplete="one-time-code"
                  aria-describedby="sign-in-code-hint"
                  value={code}
                  onChange={(event) => setCode(event.target.value)}
                />
              </>
            )}
            {firstRun && (
              <>
                <label className="label" htmlFor="sign-in-again">
                  {t('firstRun.again')}
                </label>
                <input
                  id="sign-in-again"
                  className="input"
                  type="password"
                  autoComplete="new-password"
                  value={again}
                  onChange={(event) => setAgain(event.target.value)}
                  required
                />
                <p className="field-hint">{t('firstRun.minLength', { count: MIN_PASSWORD_LENGTH })}</p>
              </>
            )}
            <button type="submit" className="button button-primary" disabled={busy || !name.trim() || !password}>
              {firstRun ? t('firstRun.submit') : t('title')}
            </button>
          </>
        )}
      </form>
    </div>
  );
}
