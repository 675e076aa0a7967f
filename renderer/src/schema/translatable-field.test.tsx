import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { UpdateContentTypeRequest } from '../../../common/api-contract.js';
import { ApiError } from '../api/api-error.js';
import { EditorApp } from '../app.js';
import { fakeApi, typeOf } from '../test-support/fake-api.js';
import { chooseOption } from '../test-support/ui-controls.js';

const PAGES = typeOf('pages', [
  { name: 'title', label: 'Title', type: 'text', required: true, localized: true },
  { name: 'position', label: 'Position', type: 'number', required: false },
  { name: 'summary', label: 'Summary', type: 'textarea', required: false },
]);

const field = (name: RegExp) => screen.getByRole('group', { name });
const translatable = (group: HTMLElement) =>
  within(group).queryByRole('checkbox', { name: 'Translatable' }) as HTMLInputElement | null;

describe('a field’s Translatable setting', () => {
  beforeEach(() => window.history.replaceState(null, '', '/settings/content-types/edit/pages'));

  it('is offered for the types that can hold a value per locale, shows the saved setting and is sent only when on', async () => {
    const user = userEvent.setup();
    const updateContentType = vi.fn(async (_slug: string, body: UpdateContentTypeRequest) =>
      typeOf('pages', body.columns ?? []),
    );
    render(<EditorApp client={fakeApi([PAGES], { updateContentType })} />);
    const title = await screen.findByRole('group', { name: 'Field 1: Title' });
    expect(translatable(title)?.checked).toBe(true);
    expect(translatable(field(/^Field 2: Position/))).toBeNull();
    const summary = field(/^Field 3: Summary/);
    expect(translatable(summary)?.checked).toBe(false);
    await user.click(translatable(summary) as HTMLInputElement);

    // A new field is not translatable until ticked; a type that cannot be loses the box.
    await user.click(screen.getByRole('button', { name: 'Add field' }));
    const added = field(/^Field 4/);
    await user.type(within(added).getByLabelText('Field label', { selector: 'input' }), 'Teaser');
    expect(translatable(added)?.checked).toBe(false);
    await user.click(translatable(added) as HTMLInputElement);
    await chooseOption(user, within(added).getByLabelText('Field type', { selector: 'button' }), 'Number');
    expect(translatable(added)).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Save content type' }));
    await waitFor(() => expect(updateContentType).toHaveBeenCalledTimes(1));
    expect(updateContentType.mock.calls[0]?.[1].columns).toEqual([
      { name: 'title', label: 'Title', type: 'text', required: true, localized: true },
      { name: 'position', label: 'Position', type: 'number', required: false },
      { name: 'summary', label: 'Summary', type: 'textarea', required: false, localized: true },
      { name: 'teaser', label: 'Teaser', type: 'number', required: false },
    ]);
  });

  it('turned off on a saved field, says its translations go when the type is saved, and sends the field shared', async () => {
    const user = userEvent.setup();
    const updateContentType = vi.fn(async (_slug: string, body: UpdateContentTypeRequest) =>
      typeOf('pages', body.columns ?? []),
    );
    render(<EditorApp client={fakeApi([PAGES], { updateContentType })} />);
    const title = await screen.findByRole('group', { name: 'Field 1: Title' });
    const box = translatable(title) as HTMLInputElement;
    await user.click(box);
    const warning = within(title).getByText(/deletes this field’s translations/);
    expect(box.getAttribute('aria-describedby')).toBe(warning.id);
    await user.click(box);
    expect(within(title).queryByText(/deletes this field’s translations/)).toBeNull();
    await user.click(box);

    await user.click(screen.getByRole('button', { name: 'Save content type' }));
    await waitFor(() => expect(updateContentType).toHaveBeenCalledTimes(1));
    expect(updateContentType.mock.calls[0]?.[1].columns?.[0]).toEqual({
      name: 'title',
      label: 'Title',
      type: 'text',
      required: true,
    });
  });

  it('shows the server’s refusal at the field', async () => {
    const user = userEvent.setup();
    const updateContentType = vi.fn(async () => {
      throw new ApiError(400, 'validation_failed', 'Invalid content type', {
        'columns[2].localized': 'cannot be translatable: a textarea column is shared by every locale',
      });
    });
    render(<EditorApp client={fakeApi([PAGES], { updateContentType })} />);
    const summary = await screen.findByRole('group', { name: /^Field 3: Summary/ });
    await user.click(translatable(summary) as HTMLInputElement);
    await user.click(screen.getByRole('button', { name: 'Save content type' }));
    expect(await within(summary).findByRole('alert')).toBeTruthy();
    expect(translatable(summary)?.getAttribute('aria-invalid')).toBe('true');
  });
});
