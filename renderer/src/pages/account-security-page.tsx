import { type FormEvent, type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import type { TwoFactorEnrolmentResponse, TwoFactorStatus } from '../../../common/two-factor-contract.js';
import { describeError } from '../api/api-error.js';
import { twoFactorApi } from '../api/two-factor-api.js';
import { ErrorState, LoadingState } from '../components/states.js';
import { useDocumentTitle } from '../hooks/use-document-title.js';
import { useT } from '../i18n/use-t.js';

/**
 * Settings › Security: one's own two-factor sign-in. Setting it up shows a QR code (and its key,
 * for typing into the app by hand), asks for a code from the app to confirm, then shows the ten
 * recovery codes once, to copy or download. Turning it off needs the password and a code. With
 * `required` (the server's `--require-2fa`), it is the only screen until setup is done.
 */
export function AccountSecurityPage({
  required = false,
  onDone,
  onSignOut,
}: {
  /** The server requires two-factor sign-in of this account: nothing else opens before it is set up. */
  required?: boolean;
  /** Setup is done and its recovery codes were seen (the editor then opens). */
  onDone?: () => void;
  onSignOut?: () => void;
}) {
  const t = useT('pages-security');
  useDocumentTitle(t('title'));
  const [status, setStatus] = useState<TwoFactorStatus | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolmentResponse | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(() => {
    setFailure(null);
    twoFactorApi.status().then(setStatus, setFailure);
  }, []);
  useEffect(load, [load]);

  /** Runs a call, showing what went wrong in the page's banner. */
  const act = async <T,>(work: () => Promise<T>): Promise<T | null> => {
    setBusy(true);
    setProblem(null);
    try {
      return await work();
    } catch (error) {
      setProblem(describeError(error));
      return null;
    } finally {
      setBusy(false);
    }
  };

  if (failure) return <ErrorState title={t('loadFailed')} message={describeError(failure)} />;
  if (!status) return <LoadingState label={t('common:states.loading')} />;

  let body: ReactNode;
  if (recoveryCodes) {
    body = (
      <RecoveryCodes
        codes={recoveryCodes}
        onDone={() => {
          setRecoveryCodes(null);
          if (onDone) onDone();
          else load();
        }}
      />
    );
  } else if (enrolment) {
    body = (
      <EnrolmentStep
        enrolment={enrolment}
        busy={busy}
        onConfirm={async (code) => {
          const confirmed = await act(() => twoFactorApi.confirm(code));
          if (confirmed) {
            setEnrolment(null);
            setStatus(confirmed.status);
            setRecoveryCodes(confirmed.recovery_codes);
          }
        }}
        onCancel={() => {
          setEnrolment(null);
          setProblem(null);
        }}
      />
    );
  } else if (status.enabled) {
    body = (
      <DisableForm
        status={status}
        busy={busy}
        onDisable={async (password, code) => {
          const after = await act(() => twoFactorApi.disable(password, code));
          if (after) setStatus(after);
          return after !== null;
        }}
      />
    );
  } else {
    body = (
      <section className="accounts-section" aria-labelledby="two-factor-off-heading">
        <h2 id="two-factor-off-heading" className="card-title">
          {t('off.title')}
        </h2>
        <p>{t('off.body')}</p>
        <button
          type="button"
          className="button button-primary"
          disabled={busy}
          onClick={async () => {
            const started = await act(() => twoFactorApi.enrol());
            if (started) setEnrolment(started);
          }}
        >
          {t('setUp')}
        </button>
      </section>
    );
  }

  return (
    <div className={required ? 'page two-factor-required' : 'page'}>
      <header className="page-header">
        <div className="page-heading">
          <p className="eyebrow eyebrow-top">{required ? t('beforeContinue') : t('common:settings')}</p>
          <h1 className="page-title">{t('title')}</h1>
          <p className="page-subtitle">{t('subtitle')}</p>
        </div>
        {required && onSignOut && (
          <button type="button" className="button button-ghost" onClick={onSignOut}>
            {t('signOut')}
          </button>
        )}
      </header>
      {required && !status.enabled && (
        <div className="banner" role="status">
          <span className="banner-text">{t('required')}</span>
        </div>
      )}
      {problem && (
        <div className="banner banner-error" role="alert">
          <span className="banner-text">{problem}</span>
        </div>
      )}
      {body}
    </div>
  );
}

/** The QR code and key of a started enrolment, and the code that confirms it. */
function EnrolmentStep({
  enrolment,
  busy,
  onConfirm,
  onCancel,
}: {
  enrolment: TwoFactorEnrolmentResponse;
  busy: boolean;
  onConfirm(code: string): Promise<void>;
  onCancel(): void;
}) {
  const t = useT('pages-security');
  const [code, setCode] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void onConfirm(code.trim()).then(() => setCode(''));
  };
  return (
    <section className="accounts-section two-factor-enrol" aria-labelledby="two-factor-enrol-heading">
      <h2 id="two-factor-enrol-heading" className="card-title" tabIndex={-1} ref={heading}>
        {t('setUp')}
      </h2>
      <ol className="two-factor-steps">
        <li>
          {t('enrol.scan')}
          <svg
            className="two-factor-qr"
            viewBox={`-4 -4 ${enrolment.qr_path.size + 8} ${enrolment.qr_path.size + 8}`}
            role="img"
            aria-label={t('enrol.qr')}
            shapeRendering="crispEdges"
          >
            <rect x={-4} y={-4} width={enrolment.qr_path.size + 8} height={enrolment.qr_path.size + 8} fill="#fff" />
            <path d={enrolment.qr_path.d} fill="#000" />
          </svg>
        </li>
        <li>
          {t('enrol.key')}{' '}
          <code className="token-once" data-testid="two-factor-secret">
            {enrolment.secret}
          </code>
        </li>
        <li>
          <form className="two-factor-form" onSubmit={submit}>
            <label className="label" htmlFor="two-factor-confirm-code">
              {t('enrol.code')}
            </label>
            <input
              id="two-factor-confirm-code"
              className="input"
              autoComplete="one-time-code"
              inputMode="numeric"
              spellCheck={false}
              value={code}
              onChange={(event) => setCode(event.target.value)}
              required
            />
            <div className="two-factor-actions">
              <button type="submit" className="button button-primary" disabled={busy || !code.trim()}>
                {t('enrol.turnOn')}
              </button>
              <button type="button" className="button button-ghost" onClick={onCancel}>
                {t('common:actions.cancel')}
              </button>
            </div>
          </form>
        </li>
      </ol>
    </section>
  );
}

/** The ten recovery codes, shown this once: copy, download, then done. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const t = useT('pages-security');
  const [copied, setCopied] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const listId = useId();
  useEffect(() => heading.current?.focus(), []);
  const text = `${t('recovery.fileHeading')}\n\n${codes.join('\n')}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'quire-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <section className="accounts-section" aria-labelledby="recovery-codes-heading">
      <h2 id="recovery-codes-heading" className="card-title" tabIndex={-1} ref={heading}>
        {t('recovery.title')}
      </h2>
      <p id={listId}>{t('recovery.body')}</p>
      <ul className="recovery-codes" aria-describedby={listId} data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="two-factor-actions">
        <button
          type="button"
          className="button"
          onClick={() =>
            navigator.clipboard.writeText(text).then(
              () => setCopied(t('recovery.copied')),
              () => setCopied(t('recovery.copyRefused')),
            )
          }
        >
          {t('common:actions.copy')}
        </button>
        <button type="button" className="button" onClick={download}>
          {t('recovery.download')}
        </button>
        <button type="button" className="button button-primary" onClick={onDone}>
          {t('recovery.saved')}
        </button>
      </div>
      <p role="status" className="field-hint">
        {copied}
      </p>
    </section>
  );
}

/** Two-factor sign-in is on: how many recovery codes are left, and turning it off. */
function DisableForm({
  status,
  busy,
  onDisable,
}: {
  status: TwoFactorStatus;
  busy: boolean;
  onDisable(password: string, code: string): Promise<boolean>;
}) {
  const t = useT('pages-security');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await onDisable(password, code.trim())) {
      setPassword('');
      setCode('');
    }
  };
  return (
    <section className="accounts-section" aria-labelledby="two-factor-on-heading">
      <h2 id="two-factor-on-heading" className="card-title">
        {t('on.title')}
      </h2>
      <p data-testid="recovery-codes-left">{t('on.left', { count: status.recovery_codes_left })}</p>
      <form className="two-factor-form" onSubmit={(event) => void submit(event)} aria-label={t('on.turnOff')}>
        <label className="label" htmlFor="two-factor-off-password">
          {t('on.password')}
        </label>
        <input
          id="two-factor-off-password"
          className="input"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          required
        />
        <label className="label" htmlFor="two-factor-off-code">
          {t('on.code')}
        </label>
        <input
          id="two-factor-off-code"
          className="input"
          autoComplete="one-time-code"
          spellCheck={false}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          required
        />
        <div className="two-factor-actions">
          <button type="submit" className="button button-danger" disabled={busy || !password || !code.trim()}>
            {t('on.turnOff')}
          </button>
        </div>
      </form>
    </section>
  );
}
