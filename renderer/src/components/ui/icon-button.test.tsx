import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { IconTrash } from '../icons.js';
import { IconButton } from './icon-button.js';

describe('IconButton', () => {
  it('is named by its label, which is also its tooltip, and does what it is clicked for', async () => {
    const onClick = vi.fn();
    render(
      <IconButton label="Remove block" onClick={onClick}>
        <IconTrash />
      </IconButton>,
    );
    const button = screen.getByRole('button', { name: 'Remove block' });
    expect(button.getAttribute('title')).toBe('Remove block');
    expect(button.getAttribute('type')).toBe('button');
    expect(button.className).toBe('button button-ghost button-small button-icon');
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('keep its name when the tooltip says why it is disabled; danger and extra classes add to the ghost style', () => {
    const ref = createRef<HTMLButtonElement>();
    render(
      <IconButton
        ref={ref}
        label="Remove field"
        title="A type keeps one field"
        tone="danger"
        className="extra"
        disabled
      >
        <IconTrash />
      </IconButton>,
    );
    const button = screen.getByRole('button', { name: 'Remove field' });
    expect(button.getAttribute('title')).toBe('A type keeps one field');
    expect(button.className).toBe('button button-ghost button-small button-icon button-danger-quiet extra');
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(ref.current).toBe(button);
  });

  it('cannot be written without a label (the type asks for it)', () => {
    // @ts-expect-error: an icon alone names nothing, so `label` is required.
    const unnamed = <IconButton>{null}</IconButton>;
    expect(unnamed.props).not.toHaveProperty('label');
  });
});
