import { useEffect, useRef } from 'react';

/** Ctrl+S (Cmd+S on macOS) runs `save` instead of the browser's "Save page as". */
export function useSaveShortcut(save: () => void, enabled = true): void {
  const latest = useRef(save);
  latest.current = save;
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 's') {
        event.preventDefault();
        // Not while a dialog is asking something: the form behind it is inert.
        if (document.getElementById('root')?.hasAttribute('inert')) return;
        latest.current();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
