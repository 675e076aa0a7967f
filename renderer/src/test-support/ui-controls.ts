import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

/**
 * What jsdom lacks and Radix's popups call: pointer capture on pointer-down, scrolling the chosen
 * option into view, and the observer the popup's positioning watches sizes with.
 */
export function polyfillPopups(): void {
  const proto = Element.prototype as Partial<Element>;
  proto.hasPointerCapture ??= () => false;
  proto.releasePointerCapture ??= () => {};
  proto.setPointerCapture ??= () => {};
  proto.scrollIntoView ??= () => {};
  globalThis.ResizeObserver ??= class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
}

/** Opens a Select by its trigger and picks the option with this text. */
export async function chooseOption(user: UserEvent, trigger: HTMLElement, option: string): Promise<void> {
  await user.click(trigger);
  await user.click(await screen.findByRole('option', { name: option }));
}

/** Opens a MultiSelect by its trigger, ticks or unticks the options with these texts, and closes it. */
export async function toggleChoices(user: UserEvent, trigger: HTMLElement, options: readonly string[]): Promise<void> {
  await user.click(trigger);
  for (const option of options) await user.click(await screen.findByRole('checkbox', { name: option }));
  await user.keyboard('{Escape}');
}
