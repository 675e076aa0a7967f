import { type FormEvent, useState } from 'react';
import type { TokenRequestReason } from '../api/client.js';
import { IconLock } from './icons.js';
import { ModalDialog } from './modal-dialog.js';

/** Props of the API-token question. */
export interface TokenDialogProps {
  reason: TokenRequestReason;
  onSubmit(token: string): void;
  onCancel(): void;
}

/**
 * Asks for the API token when the server requires one (it was started beyond loopback). The token
 * is kept for this browser session only and sent as `Authorization: Bearer` from then on.
 */
export function TokenDialog({ reason, onSubmit, onCancel }: TokenDialogProps) {
  const [token, setToken] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (token.trim() !== '') onSubmit(token.trim());
  };
  return (
    <ModalDialog
      title={reason === 'rejected' ? 'That API token was not accepted' : 'This Quire server needs an API token'}
      icon={<IconLock />}
      onDismiss={onCancel}
      actions={
        <>
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" form="quire-token-form" className="button button-primary" disabled={!token.trim()}>
            Continue
          </button>
        </>
      }
    >
      <form id="quire-token-form" onSubmit={submit} className="token-form">
        <p>
          {reason === 'rejected'
            ? 'Check the token and try again. It is printed by the server when it starts.'
            : 'The server was started with access control. Enter the API token it printed when it started.'}
        </p>
        <label htmlFor="quire-token" className="label">
          API token
        </label>
        <input
          id="quire-token"
          className="input input-mono"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={token}
          onChange={(event) => setToken(event.target.value)}
        />
        <p className="field-hint">Kept until you close this window.</p>
      </form>
    </ModalDialog>
  );
}
