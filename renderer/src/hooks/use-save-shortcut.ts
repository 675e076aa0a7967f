import { useEffect, useRef } from 'react';
import { dialogIsOpen, matchesShortcut, SHORTCUTS } from '../components/keyboard-shortcuts.js';

/** Ctrl+S (Cmd+S on macOS) runs `save` instead of the browser's "Save page as". */
export function useSaveShortcut(save: () => void, enabled = true): void {
  const latest = useRef(save);
  latest.current = save;
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (matchesShortcut(event, SHORTCUTS.save)) {
        event.preventDefault();
        // Not while a dialog is asking something: the form behind it waits.
        if (dialogIsOpen()) return;
        latest.current();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
