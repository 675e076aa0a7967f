import { type FormEvent, useState } from 'react';
import type { TokenRequestReason } from '../api/client.js';
import { useT } from '../i18n/use-t.js';
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
  const t = useT('components');
  const [token, setToken] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (token.trim() !== '') onSubmit(token.trim());
  };
  return (
    <ModalDialog
      title={reason === 'rejected' ? t('token.rejectedTitle') : t('token.neededTitle')}
      icon={<IconLock />}
      onDismiss={onCancel}
      actions={
        <>
          <button type="button" className="button" onClick={onCancel}>
            {t('common:actions.cancel')}
          </button>
          <button type="submit" form="quire-token-form" className="button button-primary" disabled={!token.trim()}>
            {t('common:actions.continue')}
          </button>
        </>
      }
    >
      <form id="quire-token-form" onSubmit={submit} className="token-form">
        <p>{reason === 'rejected' ? t('token.rejectedBody') : t('token.neededBody')}</p>
        <label htmlFor="quire-token" className="label">
          {t('token.label')}
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
        <p className="field-hint">{t('token.hint')}</p>
      </form>
    </ModalDialog>
  );
}
