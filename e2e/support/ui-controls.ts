import type { Locator } from 'playwright-core';

/** Opens a Select by its trigger and returns its listbox (the one the trigger controls). */
async function openList(trigger: Locator): Promise<Locator> {
  await trigger.click();
  const listId = await trigger.getAttribute('aria-controls');
  if (!listId) throw new Error('The Select did not open a listbox');
  return trigger.page().locator(`[id="${listId}"]`);
}

/** Opens a Select by its trigger and picks the option with exactly this text. */
export async function chooseOption(trigger: Locator, option: string): Promise<void> {
  const list = await openList(trigger);
  await list.getByRole('option', { name: option, exact: true }).click();
}

/** The options a Select offers, by their text (it opens the list and closes it again). */
export async function optionTexts(trigger: Locator): Promise<string[]> {
  const list = await openList(trigger);
  const texts = await list.getByRole('option').allTextContents();
  await trigger.page().keyboard.press('Escape');
  return texts;
}

/** Opens a MultiSelect by its trigger, ticks or unticks the options with these texts, and closes it. */
export async function toggleChoices(trigger: Locator, options: readonly string[]): Promise<void> {
  await trigger.click();
  const list = trigger.page().locator('.ui-multi-list');
  for (const option of options) await list.getByRole('checkbox', { name: option, exact: true }).click();
  await trigger.page().keyboard.press('Escape');
}
