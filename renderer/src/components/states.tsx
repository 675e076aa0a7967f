import type { ReactNode } from 'react';
import { describeError } from '../api/api-error.js';
import { useT } from '../i18n/use-t.js';
import { IconAlert, IconInbox } from './icons.js';

/** A spinner with a label, for the first load of a screen. */
export function LoadingState({ label }: { label: string }) {
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <p className="state-text">{label}</p>
    </div>
  );
}

/** Nothing to show yet, and what to do about it. */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="state state-empty">
      <span className="state-icon" aria-hidden="true">
        <IconInbox />
      </span>
      <h2 className="state-title">{title}</h2>
      {children && <p className="state-text">{children}</p>}
      {action && <div className="state-action">{action}</div>}
    </div>
  );
}

/** Something failed: what, and a way to try again. */
export function ErrorState({ title, message, action }: { title: string; message: string; action?: ReactNode }) {
  return (
    <div className="state state-error" role="alert">
      <span className="state-icon state-icon-error" aria-hidden="true">
        <IconAlert />
      </span>
      <h2 className="state-title">{title}</h2>
      <p className="state-text">{message}</p>
      {action && <div className="state-action">{action}</div>}
    </div>
  );
}

/** A load that failed: what failed, why (the error in words) and Try again. */
export function LoadFailedState({ title, error, onRetry }: { title: string; error: unknown; onRetry(): void }) {
  const t = useT('common');
  return (
    <ErrorState
      title={title}
      message={describeError(error)}
      action={
        <button type="button" className="button" onClick={onRetry}>
          {t('actions.tryAgain')}
        </button>
      }
    />
  );
}
