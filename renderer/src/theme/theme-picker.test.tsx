import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ThemePicker } from './theme-picker.js';
import { storedTheme, THEME_STORAGE_KEY } from './themes.js';
import { applyStoredTheme, chooseTheme } from './use-theme.js';

afterEach(() => {
  act(() => chooseTheme('system'));
});

describe('the editor’s theme', () => {
  it('follows the system until one is chosen, and ignores what storage holds that is no theme', () => {
    expect(storedTheme()).toBe('system');
    window.localStorage.setItem(THEME_STORAGE_KEY, 'sepia');
    expect(storedTheme()).toBe('system');
    window.localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    expect(storedTheme()).toBe('dark');
  });

  it('switches from the picker, marks <html> and remembers the choice on this machine', async () => {
    render(<ThemePicker />);
    const picker = screen.getByRole('combobox', { name: 'Theme' });
    expect(picker.textContent).toBe('System');
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);

    await userEvent.click(picker);
    await userEvent.click(screen.getByRole('option', { name: 'Dark' }));
    expect(picker.textContent).toBe('Dark');
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');

    await userEvent.click(picker);
    await userEvent.click(screen.getByRole('option', { name: 'System' }));
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
  });

  it('applies the remembered theme before the first render', () => {
    window.localStorage.setItem(THEME_STORAGE_KEY, 'light');
    act(() => chooseTheme('light'));
    document.documentElement.removeAttribute('data-theme');
    applyStoredTheme();
    expect(document.documentElement.getAttribute('data-theme')).toBe('light');
  });

  it('follows a choice made in another window of the editor', async () => {
    render(<ThemePicker />);
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: THEME_STORAGE_KEY, newValue: 'dark' }));
    });
    expect(screen.getByRole('combobox', { name: 'Theme' }).textContent).toBe('Dark');
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
  });
});
