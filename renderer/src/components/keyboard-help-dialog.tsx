import { useEffect, useRef } from 'react';
import { useT } from '../i18n/use-t.js';
import {
  dialogIsOpen,
  isTypingTarget,
  matchesShortcut,
  SHORTCUT_PLACES,
  SHORTCUTS,
  type ShortcutName,
  shortcutKeys,
  useModifierName,
} from './keyboard-shortcuts.js';
import { ModalDialog } from './modal-dialog.js';

const NAMES = Object.keys(SHORTCUTS) as ShortcutName[];

/** Every shortcut of the editor, grouped by where it works, with the keys to press. */
export function KeyboardHelpDialog({ onClose }: { onClose(): void }) {
  const t = useT('components');
  const modifier = useModifierName();
  return (
    <ModalDialog
      title={t('shortcuts.title')}
      onDismiss={onClose}
      actions={
        <button type="button" className="button" onClick={onClose}>
          {t('shortcuts.close')}
        </button>
      }
    >
      <p>{t('shortcuts.intro')}</p>
      {SHORTCUT_PLACES.map((place) => (
        <section key={place} className="shortcut-group">
          <h3 className="shortcut-place">{t(`shortcuts.places.${place}`)}</h3>
          <dl className="shortcut-list">
            {NAMES.filter((name) => SHORTCUTS[name].place === place).map((name) => (
              <div key={name} className="shortcut">
                <dt>{t(`shortcuts.items.${name}`)}</dt>
                <dd>
                  {shortcutKeys(SHORTCUTS[name], modifier).map((key) => (
                    <kbd key={key}>{key}</kbd>
                  ))}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </ModalDialog>
  );
}

/** Opens the shortcuts with `?`, unless the key is typed into a field or a dialog is already open. */
export function useHelpShortcut(open: () => void): void {
  const latest = useRef(open);
  latest.current = open;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!matchesShortcut(event, SHORTCUTS.help) || isTypingTarget(event.target) || dialogIsOpen()) return;
      event.preventDefault();
      latest.current();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
