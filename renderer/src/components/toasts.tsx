import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { useT } from '../i18n/use-t.js';
import { IconAlert, IconCheck, IconClose } from './icons.js';

/** A short message at the bottom of the window. */
export interface Toast {
  id: number;
  tone: 'success' | 'error';
  message: string;
}

type Notify = (tone: Toast['tone'], message: string) => void;

const ToastContext = createContext<Notify>(() => {});

/** How long a toast stays, in milliseconds. */
const TOAST_MS = 5_000;

/** Shows toasts ("Saved", "Deleted …") in a polite live region; each fades after a few seconds. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((toast) => toast.id !== id)), []);
  const notify = useCallback<Notify>(
    (tone, message) => {
      const id = nextId.current++;
      setToasts((all) => [...all.slice(-2), { id, tone, message }]);
      window.setTimeout(() => dismiss(id), TOAST_MS);
    },
    [dismiss],
  );
  const value = useMemo(() => notify, [notify]);
  const t = useT('components');
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast-${toast.tone}`}>
            <span className="toast-icon">{toast.tone === 'success' ? <IconCheck /> : <IconAlert />}</span>
            <span className="toast-message">{toast.message}</span>
            <button
              type="button"
              className="toast-close"
              onClick={() => dismiss(toast.id)}
              aria-label={t('toasts.dismiss')}
            >
              <IconClose />
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** Shows a toast. */
export function useToast(): Notify {
  return useContext(ToastContext);
}
