import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';

/** Props of an IconButton: a button's own, with the name it is known by instead of a text. */
export interface IconButtonProps
  extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'aria-label' | 'aria-labelledby' | 'children' | 'type'> {
  /** What the button does, in words: its accessible name, and its tooltip unless `title` says more. */
  label: string;
  /** The icon (the house's icons are hidden from screen readers; the label names the button). */
  children: ReactNode;
  /** `danger` for a button that removes something. */
  tone?: 'default' | 'danger';
  /** The button element (a drag handle's activator, a place to return focus to). */
  ref?: Ref<HTMLButtonElement>;
}

/**
 * A small ghost button that shows only an icon. The icon says nothing to a screen reader, so the
 * type asks for a label, which names the button and shows as its tooltip on hover.
 */
export function IconButton({ label, title, tone = 'default', className, children, ...button }: IconButtonProps) {
  const classes = ['button button-ghost button-small button-icon'];
  if (tone === 'danger') classes.push('button-danger-quiet');
  if (className) classes.push(className);
  return (
    <button type="button" {...button} className={classes.join(' ')} aria-label={label} title={title ?? label}>
      {children}
    </button>
  );
}
