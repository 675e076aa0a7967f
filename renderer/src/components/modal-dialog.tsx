import { type ReactNode, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';

/** How many modals are open; the page behind stays inert until the last one closes. */
let openModals = 0;

function setBackgroundInert(inert: boolean): void {
  const root = document.getElementById('root');
  if (!root) return;
  // `inert` blocks focus and clicks; aria-hidden keeps the page out of the accessibility tree, so
  // "the Delete button" means the dialog's one while it is open.
  root.toggleAttribute('inert', inert);
  if (inert) root.setAttribute('aria-hidden', 'true');
  else root.removeAttribute('aria-hidden');
}

/** Props of a modal dialog. */
export interface ModalDialogProps {
  title: string;
  /** `alertdialog` for questions that interrupt (confirmations). */
  role?: 'dialog' | 'alertdialog';
  children: ReactNode;
  /** Buttons, right-aligned at the bottom. */
  actions: ReactNode;
  /** Escape and a click on the backdrop call this. */
  onDismiss(): void;
  /** Selector of the element focused on open (inside the dialog); the first field or button otherwise. */
  initialFocus?: string;
  icon?: ReactNode;
  tone?: 'default' | 'danger';
}

/**
 * A modal dialog over the editor: focus moves in and comes back on close, Escape dismisses, and the
 * page behind is inert and hidden from assistive technology while it is open.
 */
export function ModalDialog({
  title,
  role = 'dialog',
  children,
  actions,
  onDismiss,
  initialFocus,
  icon,
  tone = 'default',
}: ModalDialogProps) {
  const titleId = useId();
  const bodyId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const dismiss = useRef(onDismiss);
  dismiss.current = onDismiss;

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    openModals++;
    setBackgroundInert(true);
    const target =
      (initialFocus && panel.current?.querySelector<HTMLElement>(initialFocus)) ||
      panel.current?.querySelector<HTMLElement>('input, select, textarea, button');
    target?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        dismiss.current();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      openModals--;
      if (openModals === 0) setBackgroundInert(false);
      if (previous && document.contains(previous)) previous.focus();
    };
  }, [initialFocus]);

  const content = (
    <>
      <div className="modal-header">
        {icon && <span className={`modal-icon modal-icon-${tone}`}>{icon}</span>}
        <h2 id={titleId} className="modal-title">
          {title}
        </h2>
      </div>
      <div id={bodyId} className="modal-body">
        {children}
      </div>
      <div className="modal-actions">{actions}</div>
    </>
  );
  const panelProps = {
    ref: panel,
    className: `modal modal-${tone}`,
    'aria-labelledby': titleId,
    'aria-describedby': bodyId,
  };
  return createPortal(
    // biome-ignore lint/a11y/noStaticElementInteractions: a click beside the dialog is a mouse shortcut for Cancel; Escape and the buttons are the keyboard paths
    <div
      className="modal-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) dismiss.current();
      }}
    >
      {role === 'alertdialog' ? (
        <div role="alertdialog" aria-modal="true" {...panelProps}>
          {content}
        </div>
      ) : (
        <div role="dialog" aria-modal="true" {...panelProps}>
          {content}
        </div>
      )}
    </div>,
    document.body,
  );
}
