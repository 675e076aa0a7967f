import { useEffect } from 'react';

/** Sets the window title (`News — Quire`), which the Electron window and browser tabs show. */
export function useDocumentTitle(...parts: (string | null | undefined)[]): void {
  const title = [...parts.filter((part): part is string => !!part), 'Quire'].join(' — ');
  useEffect(() => {
    document.title = title;
  }, [title]);
}
