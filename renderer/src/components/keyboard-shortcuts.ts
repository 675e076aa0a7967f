import { useT } from '../i18n/use-t.js';

/** Where a shortcut works; the help dialog lists them in this order. */
export const SHORTCUT_PLACES = ['anywhere', 'list', 'row', 'markdown', 'richtext', 'dialog'] as const;

/** Where a shortcut works. */
export type ShortcutPlace = (typeof SHORTCUT_PLACES)[number];

/** One keyboard shortcut: its key (`KeyboardEvent.key`), whether Ctrl (⌘ on macOS), Alt and Shift go with it, and where. */
export interface Shortcut {
  key: string;
  /** Ctrl on Windows and Linux, ⌘ on macOS. */
  mod?: true;
  /** Alt (⌥ on macOS), with mod. */
  alt?: true;
  /** Shift, with mod. */
  shift?: true;
  place: ShortcutPlace;
}

/**
 * Every shortcut of the editor. The handlers match keys through this list and the help dialog
 * (`?`) lists it, so what the dialog says is what the keys do. The names are the catalog keys
 * (`components:shortcuts.items.<name>`); the Markdown ones are also the formats they apply.
 */
export const SHORTCUTS = {
  help: { key: '?', place: 'anywhere' },
  search: { key: '/', place: 'list' },
  save: { key: 's', mod: true, place: 'row' },
  bold: { key: 'b', mod: true, place: 'markdown' },
  italic: { key: 'i', mod: true, place: 'markdown' },
  link: { key: 'k', mod: true, place: 'markdown' },
  // The rich-text editor's keys are TipTap's own keymaps; these entries name them for the help and tooltips.
  heading2: { key: '2', mod: true, alt: true, place: 'richtext' },
  heading3: { key: '3', mod: true, alt: true, place: 'richtext' },
  heading4: { key: '4', mod: true, alt: true, place: 'richtext' },
  strike: { key: 's', mod: true, shift: true, place: 'richtext' },
  code: { key: 'e', mod: true, place: 'richtext' },
  bullets: { key: '8', mod: true, shift: true, place: 'richtext' },
  numbers: { key: '7', mod: true, shift: true, place: 'richtext' },
  quote: { key: 'b', mod: true, shift: true, place: 'richtext' },
  codeBlock: { key: 'c', mod: true, alt: true, place: 'richtext' },
  undo: { key: 'z', mod: true, place: 'richtext' },
  redo: { key: 'z', mod: true, shift: true, place: 'richtext' },
  close: { key: 'Escape', place: 'dialog' },
} as const satisfies Record<string, Shortcut>;

/** The name of a shortcut. */
export type ShortcutName = keyof typeof SHORTCUTS;

/** Whether a key press is the shortcut: its key, with Ctrl or ⌘, Alt and Shift exactly when the shortcut wants them. */
export function matchesShortcut(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>,
  shortcut: Shortcut,
): boolean {
  if (event.altKey !== (shortcut.alt === true)) return false;
  if (shortcut.mod) {
    return (
      (event.ctrlKey || event.metaKey) &&
      event.shiftKey === (shortcut.shift === true) &&
      event.key.toLowerCase() === shortcut.key
    );
  }
  // Shift is part of typing `?` on most layouts, so it is not checked for single keys.
  return !event.ctrlKey && !event.metaKey && event.key === shortcut.key;
}

/** Whether a key press lands where it types text, so a single-key shortcut must leave it alone. */
export function isTypingTarget(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('input, textarea, select, [contenteditable]') !== null;
}

/**
 * Whether a dialog or popup is open over the editor: the page's shortcuts wait while it asks
 * something, since the form behind it is not what the person is working on.
 */
export function dialogIsOpen(): boolean {
  return (
    document.getElementById('root')?.hasAttribute('inert') === true ||
    document.querySelector('[role="dialog"], [role="alertdialog"]') !== null
  );
}

/** Whether the modifier key is ⌘ (macOS) rather than Ctrl. */
export function usesCommandKey(platform = navigator.platform): boolean {
  return /mac|iphone|ipad/i.test(platform);
}

/** The keys to press for a shortcut as they are printed on keyboards: `['Ctrl', 'S']`, `['⌘', '⌥', '2']`, `['Esc']`. */
export function shortcutKeys(shortcut: Shortcut, modifier: string): string[] {
  const key = shortcut.key === 'Escape' ? 'Esc' : shortcut.key.length === 1 ? shortcut.key.toUpperCase() : shortcut.key;
  if (!shortcut.mod) return [key];
  const mac = modifier === '⌘';
  return [
    modifier,
    ...(shortcut.alt ? [mac ? '⌥' : 'Alt'] : []),
    ...(shortcut.shift ? [mac ? '⇧' : 'Shift'] : []),
    key,
  ];
}

/**
 * A shortcut's keys as one text for tooltips (`Ctrl+S`, `⌘S`), the modifier named as the editor's
 * language prints it on keyboards (Strg in German).
 */
export function useShortcutText(): (shortcut: Shortcut) => string {
  const modifier = useModifierName();
  const joiner = usesCommandKey() ? '' : '+';
  return (shortcut) => shortcutKeys(shortcut, modifier).join(joiner);
}

/** The modifier key as the editor's language prints it: ⌘ on macOS, else Ctrl (Strg in German). */
export function useModifierName(): string {
  const t = useT('components');
  return usesCommandKey() ? '⌘' : t('shortcuts.keys.ctrl');
}
