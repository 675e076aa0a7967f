import type { ReactNode } from 'react';

/** What a control inside a LabeledControl gets: its id and the ids describing it. */
export interface ControlProps {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

/**
 * A label, one control, an optional hint and the server's problem with it (named by the label),
 * wired together with ids, as the row editor's fields are.
 */
export function LabeledControl({
  id,
  label,
  hint,
  error,
  errorAction,
  className,
  children,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  /** The problem, as the end of a sentence that starts with the label (it may hold links). */
  error?: ReactNode;
  /** A control that answers the problem (take a proposed value), after its sentence. */
  errorAction?: ReactNode;
  className?: string;
  children(props: ControlProps): ReactNode;
}) {
  const errorId = error ? `${id}-error` : undefined;
  const hintId = hint ? `${id}-hint` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field ${className ?? ''}`} data-invalid={error ? 'true' : undefined}>
      <label htmlFor={id} className="label">
        {label}
      </label>
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined })}
      {error && (
        <p id={errorId} className="field-error">
          {/* One flowing sentence beside the icon, links and all. */}
          <span>
            {label} {error}
          </span>
        </p>
      )}
      {error && errorAction}
      {hint && !error && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
    </div>
  );
}
