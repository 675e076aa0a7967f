import * as RadixDialog from '@radix-ui/react-dialog';
import { type ReactNode, useEffect, useId, useRef } from 'react';

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

/** Dialogs open now: the page stays inert until the last one closes. */
let openDialogs = 0;

/**
 * Makes the editor's page (`#root`; dialogs render beside it) inert while any dialog is open: Radix
 * hides it from assistive technology with `aria-hidden`, and inert also takes its controls out of
 * the focus order, so nothing hidden can still be reached.
 */
function useInertPage(): void {
  useEffect(() => {
    const page = document.getElementById('root');
    if (!page) return;
    openDialogs++;
    page.inert = true;
    return () => {
      openDialogs--;
      if (openDialogs === 0) page.inert = false;
    };
  }, []);
}

/**
 * A modal dialog over the editor, on Radix Dialog: focus moves in, stays inside and comes back on
 * close, Escape and a click beside it dismiss, and the page behind is hidden from assistive
 * technology and takes no clicks while it is open, so "the Delete button" means the dialog's one.
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
  const bodyId = useId();
  const panel = useRef<HTMLDivElement>(null);
  useInertPage();
  return (
    // The dialog is open while it is rendered; its owner closes it by no longer rendering it.
    <RadixDialog.Root open onOpenChange={(open) => open || onDismiss()}>
      <RadixDialog.Portal>
        {/* Radix's Overlay locks scrolling with an injected <style>, which the editor's style policy
            refuses; this backdrop only dims, and a press on it is outside the dialog, so it dismisses. */}
        <div className="modal-backdrop">
          <RadixDialog.Content
            ref={panel}
            role={role}
            className={`modal modal-${tone}`}
            aria-describedby={bodyId}
            onOpenAutoFocus={(event) => {
              const target = initialFocus && panel.current?.querySelector<HTMLElement>(initialFocus);
              if (!target) return;
              event.preventDefault();
              target.focus();
            }}
          >
            <div className="modal-header">
              {icon && <span className={`modal-icon modal-icon-${tone}`}>{icon}</span>}
              <RadixDialog.Title className="modal-title">{title}</RadixDialog.Title>
            </div>
            <div id={bodyId} className="modal-body">
              {children}
            </div>
            <div className="modal-actions">{actions}</div>
          </RadixDialog.Content>
        </div>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
