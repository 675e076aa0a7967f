import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { Trans } from 'react-i18next';
import { MAX_NAME_LENGTH, MIN_PASSWORD_LENGTH } from '../../../common/access-rules.js';
import { type AccountSummary, ROLES, type Role, type TokenSummary } from '../../../common/api-contract.js';
import { describeError } from '../api/api-error.js';
import { authApi } from '../api/auth-api.js';
import { useAuth } from '../api/auth-context.js';
import { EmptyState, ErrorState, LoadingState } from '../components/states.js';
import { Select } from '../components/ui/select.js';
import { useDocumentTitle } from '../hooks/use-document-title.js';
import { useFormatters } from '../i18n/formatters.js';
import { i18n } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';
import { LabeledControl } from '../schema/labeled-control.js';
import { SignInPage } from './sign-in-page.js';

/** A comma-separated list of content types as the API takes it (none: all types). */
function typeList(text: string): string[] | null {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return names.length === 0 ? null : names;
}

const typesText = (types: string[] | null) => (types === null ? i18n.t('pages-accounts:allTypes') : types.join(', '));

/**
 * Settings › Accounts: the first-run form while there are no accounts (loopback), else, for
 * admins, the accounts (add, change role, reset password, disable) and the API tokens (add,
 * shown once; revoke). The server refuses everyone else anyway.
 */
export function AccountsPage() {
  const t = useT('pages-accounts');
  useDocumentTitle(t('title'));
  const { me, signedIn } = useAuth();
  if (me.via === 'local' && me.first_run) return <SignInPage firstRun onSignedIn={(now) => signedIn?.(now)} />;
  if (me.via === 'local') {
    return <EmptyState title={t('none.title')}>{t('none.body')}</EmptyState>;
  }
  if (!me.can.manage_accounts) {
    return <ErrorState title={t('adminsOnly.title')} message={t('adminsOnly.message')} />;
  }
  return <AccountsAdmin />;
}

function AccountsAdmin() {
  const t = useT('pages-accounts');
  const format = useFormatters();
  const [accounts, setAccounts] = useState<AccountSummary[] | null>(null);
  const [tokens, setTokens] = useState<TokenSummary[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [newToken, setNewToken] = useState<{ name: string; token: string } | null>(null);
  const load = useCallback(async () => {
    try {
      const [listed, issued] = await Promise.all([authApi.listAccounts(), authApi.listTokens()]);
      setAccounts(listed);
      setTokens(issued);
    } catch (error) {
      setProblem(describeError(error));
    }
  }, []);
  useEffect(() => void load(), [load]);
  /** Runs a change, then shows the lists as they are now (or what went wrong). */
  const act = async (change: () => Promise<unknown>): Promise<boolean> => {
    setProblem(null);
    try {
      await change();
      await load();
      return true;
    } catch (error) {
      setProblem(describeError(error));
      return false;
    }
  };
  if (!accounts || !tokens)
    return problem ? <ErrorState title={t('loadFailed')} message={problem} /> : <LoadingState label={t('loading')} />;

  return (
    <div className="page">
      <header className="page-header">
        <div className="page-heading">
          <p className="eyebrow eyebrow-top">{t('common:settings')}</p>
          <h1 className="page-title">{t('title')}</h1>
          <p className="page-subtitle">{t('subtitle')}</p>
        </div>
      </header>
      {problem && (
        <div className="banner banner-error" role="alert">
          <span className="banner-text">{problem}</span>
        </div>
      )}
      <section className="card settings-card" aria-labelledby="accounts-heading">
        <h2 id="accounts-heading" className="card-title">
          {t('people')}
        </h2>
        <div className="table-wrap">
          <table className="table settings-table">
            <thead>
              <tr>
                <th scope="col">{t('columns.name')}</th>
                <th scope="col">{t('columns.role')}</th>
                <th scope="col">{t('columns.types')}</th>
                <th scope="col">{t('columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {accounts.map((account) => (
                <AccountRow key={account.name} account={account} act={act} />
              ))}
            </tbody>
          </table>
        </div>
        <AddAccountForm act={act} />
      </section>
      <section className="card settings-card" aria-labelledby="tokens-heading">
        <h2 id="tokens-heading" className="card-title">
          {t('tokens')}
        </h2>
        {newToken && (
          <div className="banner" role="status">
            <span className="banner-text">
              <Trans
                t={t}
                i18nKey="tokenOnce"
                values={{ name: newToken.name, token: newToken.token }}
                components={{ code: <code className="token-once" /> }}
              />
            </span>
          </div>
        )}
        <div className="table-wrap">
          <table className="table settings-table">
            <thead>
              <tr>
                <th scope="col">{t('columns.name')}</th>
                <th scope="col">{t('columns.role')}</th>
                <th scope="col">{t('columns.types')}</th>
                <th scope="col">{t('columns.state')}</th>
                <th scope="col">{t('columns.lastUsed')}</th>
                <th scope="col">{t('columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((token) => (
                <tr key={`${token.name}/${token.created_at}`}>
                  <td>{token.name}</td>
                  <td>{t(`common:roles.${token.role}`)}</td>
                  <td>{typesText(token.content_types)}</td>
                  <td>
                    {token.revoked_at
                      ? t('token.revoked')
                      : token.expires_at
                        ? t('token.expires', { date: format.date(new Date(token.expires_at)) })
                        : t('token.neverExpires')}
                  </td>
                  <td>
                    {token.last_used_at
                      ? format.date(new Date(token.last_used_at), { dateStyle: 'medium', timeStyle: 'medium' })
                      : t('common:never')}
                  </td>
                  <td>
                    {!token.revoked_at && (
                      <button
                        type="button"
                        className="button button-small button-danger-quiet"
                        onClick={() => void act(() => authApi.revokeToken(token.name))}
                      >
                        {t('token.revoke', { name: token.name })}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <AddTokenForm act={act} onMade={setNewToken} />
      </section>
    </div>
  );
}

type Act = (change: () => Promise<unknown>) => Promise<boolean>;

function RoleSelect({ id, value, onChange }: { id: string; value: Role; onChange(role: Role): void }) {
  const t = useT('pages-accounts');
  return (
    <Select
      id={id}
      size="small"
      value={value}
      options={ROLES.map((role) => ({ value: role, label: t(`common:roles.${role}`) }))}
      onChange={(role) => onChange(role as Role)}
    />
  );
}

function AccountRow({ account, act }: { account: AccountSummary; act: Act }) {
  const t = useT('pages-accounts');
  const [resetting, setResetting] = useState(false);
  const [password, setPassword] = useState('');
  const change = (body: Parameters<typeof authApi.changeAccount>[1]) =>
    act(() => authApi.changeAccount(account.name, body));
  return (
    <tr>
      <td>
        {account.name}
        {account.disabled && <span className="badge badge-gray account-disabled">{t('account.disabled')}</span>}
      </td>
      <td>
        <label className="visually-hidden" htmlFor={`role-${account.name}`}>
          {t('account.roleOf', { name: account.name })}
        </label>
        <RoleSelect id={`role-${account.name}`} value={account.role} onChange={(role) => void change({ role })} />
      </td>
      <td>{typesText(account.content_types)}</td>
      <td className="account-actions">
        {resetting ? (
          <form
            className="input-group"
            onSubmit={(event) => {
              event.preventDefault();
              void change({ password }).then((done) => done && setResetting(false));
            }}
          >
            <label className="visually-hidden" htmlFor={`password-${account.name}`}>
              {t('account.newPassword', { name: account.name })}
            </label>
            <input
              id={`password-${account.name}`}
              className="input"
              type="password"
              autoComplete="new-password"
              minLength={MIN_PASSWORD_LENGTH}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              aria-describedby={`password-${account.name}-hint`}
            />
            <button type="submit" className="button button-small">
              {t('account.setPassword')}
            </button>
            <p id={`password-${account.name}-hint`} className="field-hint account-password-hint">
              {t('rules.passwordLength', { count: MIN_PASSWORD_LENGTH })}
            </p>
          </form>
        ) : (
          <button type="button" className="button button-small" onClick={() => setResetting(true)}>
            {t('account.resetPassword', { name: account.name })}
          </button>
        )}
        <button
          type="button"
          className="button button-small button-danger-quiet"
          onClick={() => void change({ disabled: !account.disabled })}
        >
          {t(account.disabled ? 'account.enable' : 'account.disable', { name: account.name })}
        </button>
      </td>
    </tr>
  );
}

/** The name (with its rule) and role every new credential starts from: an account's or a token's. */
function NameAndRole(props: {
  idPrefix: string;
  labels: { name: string; role: string };
  name: string;
  onName(name: string): void;
  role: Role;
  onRole(role: Role): void;
}) {
  const t = useT('pages-accounts');
  return (
    <>
      <LabeledControl
        id={`${props.idPrefix}-name`}
        label={props.labels.name}
        hint={t('rules.name', { max: MAX_NAME_LENGTH })}
      >
        {(control) => (
          <input
            {...control}
            className="input"
            maxLength={MAX_NAME_LENGTH}
            value={props.name}
            onChange={(event) => props.onName(event.target.value)}
          />
        )}
      </LabeledControl>
      <LabeledControl id={`${props.idPrefix}-role`} label={props.labels.role}>
        {(control) => <RoleSelect id={control.id} value={props.role} onChange={props.onRole} />}
      </LabeledControl>
    </>
  );
}

function AddAccountForm({ act }: { act: Act }) {
  const [name, setName] = useState('');
  const t = useT('pages-accounts');
  const [role, setRole] = useState<Role>('author');
  const [password, setPassword] = useState('');
  const [types, setTypes] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const done = await act(() =>
      authApi.addAccount({ name: name.trim(), role, password, content_types: typeList(types) }),
    );
    if (done) {
      setName('');
      setPassword('');
      setTypes('');
    }
  };
  return (
    <form className="field-grid settings-form" onSubmit={(event) => void submit(event)} aria-label={t('add.title')}>
      <NameAndRole
        idPrefix="new-account"
        labels={{ name: t('columns.name'), role: t('columns.role') }}
        name={name}
        onName={setName}
        role={role}
        onRole={setRole}
      />
      <LabeledControl
        id="new-account-password"
        label={t('add.password')}
        hint={t('rules.passwordLength', { count: MIN_PASSWORD_LENGTH })}
      >
        {(control) => (
          <input
            {...control}
            className="input"
            type="password"
            autoComplete="new-password"
            minLength={MIN_PASSWORD_LENGTH}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        )}
      </LabeledControl>
      <LabeledControl id="new-account-types" label={t('add.types')}>
        {(control) => (
          <input {...control} className="input" value={types} onChange={(event) => setTypes(event.target.value)} />
        )}
      </LabeledControl>
      <div className="settings-form-actions">
        <button type="submit" className="button button-primary" disabled={!name.trim() || !password}>
          {t('add.submit')}
        </button>
      </div>
    </form>
  );
}

function AddTokenForm({ act, onMade }: { act: Act; onMade(made: { name: string; token: string }): void }) {
  const [name, setName] = useState('');
  const t = useT('pages-accounts');
  const [role, setRole] = useState<Role>('viewer');
  const [types, setTypes] = useState('');
  const [days, setDays] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const done = await act(async () => {
      const made = await authApi.addToken({
        name: name.trim(),
        role,
        content_types: typeList(types),
        expires_days: days.trim() === '' ? null : Number(days),
      });
      onMade({ name: made.name, token: made.token });
    });
    if (done) {
      setName('');
      setTypes('');
      setDays('');
    }
  };
  return (
    <form
      className="field-grid settings-form"
      onSubmit={(event) => void submit(event)}
      aria-label={t('addToken.title')}
    >
      <NameAndRole
        idPrefix="new-token"
        labels={{ name: t('addToken.name'), role: t('addToken.role') }}
        name={name}
        onName={setName}
        role={role}
        onRole={setRole}
      />
      <LabeledControl id="new-token-types" label={t('addToken.types')}>
        {(control) => (
          <input {...control} className="input" value={types} onChange={(event) => setTypes(event.target.value)} />
        )}
      </LabeledControl>
      <LabeledControl id="new-token-days" label={t('addToken.days')}>
        {(control) => (
          <input
            {...control}
            className="input"
            inputMode="numeric"
            value={days}
            onChange={(event) => setDays(event.target.value)}
          />
        )}
      </LabeledControl>
      <div className="settings-form-actions">
        <button type="submit" className="button button-primary" disabled={!name.trim()}>
          {t('addToken.submit')}
        </button>
      </div>
    </form>
  );
}
