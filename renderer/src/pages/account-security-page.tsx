import { type FormEvent, type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import type { TwoFactorEnrolmentResponse, TwoFactorStatus } from '../../../common/two-factor-contract.js';
import { describeError } from '../api/api-error.js';
import { twoFactorApi } from '../api/two-factor-api.js';
import { ErrorState, LoadingState } from '../components/states.js';
import { useDocumentTitle } from '../hooks/use-document-title.js';

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
  useDocumentTitle('Security');
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

  if (failure) return <ErrorState title="Couldn’t read your security settings" message={describeError(failure)} />;
  if (!status) return <LoadingState label="Loading…" />;

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
          Two-factor sign-in is off
        </h2>
        <p>
          With it on, signing in asks for a code from an authenticator app on your phone after your password, so a
          guessed or stolen password alone does not get in.
        </p>
        <button
          type="button"
          className="button button-primary"
          disabled={busy}
          onClick={async () => {
            const started = await act(() => twoFactorApi.enrol());
            if (started) setEnrolment(started);
          }}
        >
          Set up two-factor sign-in
        </button>
      </section>
    );
  }

  return (
    <div className={required ? 'page two-factor-required' : 'page'}>
      <header className="page-header">
        <div className="page-heading">
          <p className="eyebrow eyebrow-top">{required ? 'Before you continue' : 'Settings'}</p>
          <h1 className="page-title">Security</h1>
          <p className="page-subtitle">Two-factor sign-in for your account.</p>
        </div>
        {required && onSignOut && (
          <button type="button" className="button button-ghost" onClick={onSignOut}>
            Sign out
          </button>
        )}
      </header>
      {required && !status.enabled && (
        <div className="banner" role="status">
          <span className="banner-text">
            This Quire requires two-factor sign-in for your account. Set it up to continue.
          </span>
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
        Set up two-factor sign-in
      </h2>
      <ol className="two-factor-steps">
        <li>
          Scan this QR code with an authenticator app (for example Aegis, Google Authenticator, 1Password).
          <svg
            className="two-factor-qr"
            viewBox={`-4 -4 ${enrolment.qr_path.size + 8} ${enrolment.qr_path.size + 8}`}
            role="img"
            aria-label="QR code to add Quire to an authenticator app"
            shapeRendering="crispEdges"
          >
            <rect x={-4} y={-4} width={enrolment.qr_path.size + 8} height={enrolment.qr_path.size + 8} fill="#fff" />
            <path d={enrolment.qr_path.d} fill="#000" />
          </svg>
        </li>
        <li>
          Or enter this key in the app by hand:{' '}
          <code className="token-once" data-testid="two-factor-secret">
            {enrolment.secret}
          </code>
        </li>
        <li>
          <form className="two-factor-form" onSubmit={submit}>
            <label className="label" htmlFor="two-factor-confirm-code">
              Then enter the six-digit code the app shows
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
                Turn on
              </button>
              <button type="button" className="button button-ghost" onClick={onCancel}>
                Cancel
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
  const [copied, setCopied] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const listId = useId();
  useEffect(() => heading.current?.focus(), []);
  const text = `Quire recovery codes (each works once)\n\n${codes.join('\n')}\n`;
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
        Two-factor sign-in is on: save your recovery codes
      </h2>
      <p id={listId}>
        If you lose your phone, each of these codes signs you in once instead of a code from the app. They are shown
        only now: copy or download them and keep them somewhere safe.
      </p>
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
              () => setCopied('Copied.'),
              () => setCopied('Copying was refused by the browser: select the codes and copy them instead.'),
            )
          }
        >
          Copy
        </button>
        <button type="button" className="button" onClick={download}>
          Download
        </button>
        <button type="button" className="button button-primary" onClick={onDone}>
          I have saved them
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
        Two-factor sign-in is on
      </h2>
      <p data-testid="recovery-codes-left">
        {status.recovery_codes_left === 1
          ? '1 recovery code is left.'
          : `${status.recovery_codes_left} recovery codes are left.`}
      </p>
      <form
        className="two-factor-form"
        onSubmit={(event) => void submit(event)}
        aria-label="Turn off two-factor sign-in"
      >
        <label className="label" htmlFor="two-factor-off-password">
          Password
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
          Code from the app, or a recovery code
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
            Turn off two-factor sign-in
          </button>
        </div>
      </form>
    </section>
  );
}
