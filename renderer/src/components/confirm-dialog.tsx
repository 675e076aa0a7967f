import type { ReactNode } from 'react';
import { useT } from '../i18n/use-t.js';
import { IconAlert } from './icons.js';
import { ModalDialog } from './modal-dialog.js';

/** Props of a yes/no question. */
export interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  /** Name of the button that goes ahead (`Delete`, `Discard changes`). */
  confirmLabel: string;
  cancelLabel?: string;
  tone?: 'default' | 'danger';
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/** A question before something that cannot be undone; Cancel has focus, so Enter never destroys. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel,
  tone = 'danger',
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const t = useT('common');
  return (
    <ModalDialog
      title={title}
      role="alertdialog"
      tone={tone}
      icon={<IconAlert />}
      onDismiss={busy ? () => {} : onCancel}
      initialFocus="[data-autofocus]"
      actions={
        <>
          <button type="button" className="button" onClick={onCancel} disabled={busy} data-autofocus>
            {cancelLabel ?? t('actions.cancel')}
          </button>
          <button
            type="button"
            className={`button ${tone === 'danger' ? 'button-danger' : 'button-primary'}`}
            onClick={onConfirm}
            disabled={busy}
            aria-busy={busy || undefined}
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </ModalDialog>
  );
}
