import { type FormEvent, useState } from 'react';
import type { AuthMeResponse } from '../../../common/api-contract.js';
import { describeError } from '../api/api-error.js';
import { twoFactorApi } from '../api/two-factor-api.js';
import { useDocumentTitle } from '../hooks/use-document-title.js';
import { useT } from '../i18n/use-t.js';

/**
 * The sign-in's second step: after a right password, a code from the authenticator app (or one of
 * the recovery codes). The server waits five minutes for it; past that, or after "Start again",
 * the password is asked for again.
 */
export function SecondFactorPage({
  token,
  onSignedIn,
  onStartAgain,
}: {
  /** The waiting sign-in's token, from the password step's answer. */
  token: string;
  onSignedIn(me: AuthMeResponse): void;
  onStartAgain(): void;
}) {
  const t = useT('pages-sign-in');
  useDocumentTitle(t('secondFactor.title'));
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      onSignedIn(await twoFactorApi.secondFactor(token, code.trim()));
    } catch (error) {
      setProblem(describeError(error));
      setCode('');
      setBusy(false);
    }
  };

  const inputId = recovery ? 'second-factor-recovery' : 'second-factor-code';
  return (
    <div className="sign-in">
      <form
        className="card sign-in-card"
        onSubmit={(event) => void submit(event)}
        aria-labelledby="second-factor-title"
      >
        <div className="sign-in-brand">
          <img src="/favicon.svg" alt="" width={32} height={32} />
          <span className="brand-name">{t('common:product')}</span>
        </div>
        <h1 id="second-factor-title" className="page-title">
          {t('secondFactor.title')}
        </h1>
        <p className="page-subtitle">{recovery ? t('secondFactor.recoveryIntro') : t('secondFactor.codeIntro')}</p>
        {problem && (
          <div className="banner banner-error" role="alert">
            <span className="banner-text">{problem}</span>
          </div>
        )}
        <label className="label" htmlFor={inputId}>
          {recovery ? t('secondFactor.recoveryCode') : t('secondFactor.code')}
        </label>
        <input
          key={inputId}
          id={inputId}
          className="input"
          autoComplete="one-time-code"
          inputMode={recovery ? 'text' : 'numeric'}
          pattern={recovery ? undefined : '[0-9 ]{6,7}'}
          spellCheck={false}
          // biome-ignore lint/a11y/noAutofocus: the page has this one field, and the person just pressed Sign in
          autoFocus
          value={code}
          onChange={(event) => setCode(event.target.value)}
          required
        />
        <button type="submit" className="button button-primary" disabled={busy || !code.trim()}>
          {t('secondFactor.submit')}
        </button>
        <button
          type="button"
          className="button button-ghost"
          onClick={() => {
            setRecovery(!recovery);
            setCode('');
            setProblem(null);
          }}
        >
          {recovery ? t('secondFactor.useApp') : t('secondFactor.useRecovery')}
        </button>
        <button type="button" className="button button-ghost" onClick={onStartAgain}>
          {t('secondFactor.startAgain')}
        </button>
      </form>
    </div>
  );
}
