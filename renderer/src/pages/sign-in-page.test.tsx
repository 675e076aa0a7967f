import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/api-error.js';
import { authApi, LOCAL_USER } from '../api/auth-api.js';
import { SignInPage } from './sign-in-page.js';

afterEach(() => vi.restoreAllMocks());

describe('the sign-in page', () => {
  it('offers a two-factor code once guesses have locked the name, and signs in with password and code together', async () => {
    vi.spyOn(authApi, 'providers').mockResolvedValue({ password: true, single_sign_on: null });
    const locked = new ApiError(
      429,
      'too_many_requests',
      'Too many failed sign-ins from this address or at this name; try again later',
    );
    const signIn = vi.spyOn(authApi, 'signIn').mockRejectedValueOnce(locked).mockResolvedValueOnce(LOCAL_USER);
    const onSignedIn = vi.fn();
    render(<SignInPage firstRun={false} onSignedIn={onSignedIn} />);
    const user = userEvent.setup();
    expect(screen.queryByLabelText('Two-factor code')).toBeNull();
    await user.type(screen.getByLabelText('Name'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/Too many failed sign-ins/);
    await user.type(screen.getByLabelText('Two-factor code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(signIn).toHaveBeenLastCalledWith('ada', 'correct horse battery', '123456');
    expect(onSignedIn).toHaveBeenCalledWith(LOCAL_USER);
  });
});
