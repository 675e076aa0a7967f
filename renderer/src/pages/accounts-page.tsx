import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { MIN_PASSWORD_LENGTH } from '../../../common/access-rules.js';
import { type AccountSummary, ROLES, type Role, type TokenSummary } from '../../../common/api-contract.js';
import { describeError } from '../api/api-error.js';
import { authApi } from '../api/auth-api.js';
import { useAuth } from '../api/auth-context.js';
import { EmptyState, ErrorState, LoadingState } from '../components/states.js';
import { useDocumentTitle } from '../hooks/use-document-title.js';
import { SignInPage } from './sign-in-page.js';

/** A comma-separated list of content types as the API takes it (none: all types). */
function typeList(text: string): string[] | null {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return names.length === 0 ? null : names;
}

const typesText = (types: string[] | null) => (types === null ? 'All types' : types.join(', '));

/**
 * Settings › Accounts: the first-run form while there are no accounts (loopback), else, for
 * admins, the accounts (add, change role, reset password, disable) and the API tokens (add,
 * shown once; revoke). The server refuses everyone else anyway.
 */
export function AccountsPage() {
  useDocumentTitle('Accounts');
  const { me, signedIn } = useAuth();
  if (me.via === 'local' && me.first_run) return <SignInPage firstRun onSignedIn={(now) => signedIn?.(now)} />;
  if (me.via === 'local') {
    return (
      <EmptyState title="No accounts">
        Accounts are made on the server's own machine: run quire user add NAME --role admin there.
      </EmptyState>
    );
  }
  if (!me.can.manage_accounts) {
    return <ErrorState title="Only admins manage accounts" message="Ask an admin to change your account." />;
  }
  return <AccountsAdmin />;
}

function AccountsAdmin() {
  const [accounts, setAccounts] = useState<AccountSummary[] | null>(null);
  const [tokens, setTokens] = useState<TokenSummary[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [newToken, setNewToken] = useState<{ name: string; token: string } | null>(null);
  const load = useCallback(async () => {
    try {
      const [a, t] = await Promise.all([authApi.listAccounts(), authApi.listTokens()]);
      setAccounts(a);
      setTokens(t);
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
    return problem ? (
      <ErrorState title="Couldn’t load accounts" message={problem} />
    ) : (
      <LoadingState label="Loading accounts…" />
    );

  return (
    <div className="page">
      <header className="page-header">
        <div className="page-heading">
          <p className="eyebrow eyebrow-top">Settings</p>
          <h1 className="page-title">Accounts</h1>
          <p className="page-subtitle">
            Who may sign in, and with which role; and the API tokens of builds and scripts.
          </p>
        </div>
      </header>
      {problem && (
        <div className="banner banner-error" role="alert">
          <span className="banner-text">{problem}</span>
        </div>
      )}
      <section className="accounts-section" aria-labelledby="accounts-heading">
        <h2 id="accounts-heading" className="card-title">
          People
        </h2>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Content types</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {accounts.map((account) => (
              <AccountRow key={account.name} account={account} act={act} />
            ))}
          </tbody>
        </table>
        <AddAccountForm act={act} />
      </section>
      <section className="accounts-section" aria-labelledby="tokens-heading">
        <h2 id="tokens-heading" className="card-title">
          API tokens
        </h2>
        {newToken && (
          <div className="banner" role="status">
            <span className="banner-text">
              The token {newToken.name} is <code className="token-once">{newToken.token}</code>. Copy it now: it is not
              shown again.
            </span>
          </div>
        )}
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Content types</th>
              <th scope="col">State</th>
              <th scope="col">Last used</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={`${token.name}/${token.created_at}`}>
                <td>{token.name}</td>
                <td>{token.role}</td>
                <td>{typesText(token.content_types)}</td>
                <td>
                  {token.revoked_at
                    ? 'Revoked'
                    : token.expires_at
                      ? `Expires ${new Date(token.expires_at).toLocaleDateString()}`
                      : 'Never expires'}
                </td>
                <td>{token.last_used_at ? new Date(token.last_used_at).toLocaleString() : 'Never'}</td>
                <td>
                  {!token.revoked_at && (
                    <button
                      type="button"
                      className="button button-small button-danger-quiet"
                      onClick={() => void act(() => authApi.revokeToken(token.name))}
                    >
                      Revoke {token.name}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <AddTokenForm act={act} onMade={setNewToken} />
      </section>
    </div>
  );
}

type Act = (change: () => Promise<unknown>) => Promise<boolean>;

function RoleSelect({ id, value, onChange }: { id: string; value: Role; onChange(role: Role): void }) {
  return (
    <select
      id={id}
      className="select select-small"
      value={value}
      onChange={(event) => onChange(event.target.value as Role)}
    >
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {role}
        </option>
      ))}
    </select>
  );
}

function AccountRow({ account, act }: { account: AccountSummary; act: Act }) {
  const [resetting, setResetting] = useState(false);
  const [password, setPassword] = useState('');
  const change = (body: Parameters<typeof authApi.changeAccount>[1]) =>
    act(() => authApi.changeAccount(account.name, body));
  return (
    <tr>
      <td>
        {account.name}
        {account.disabled && <span className="badge badge-gray account-disabled">Disabled</span>}
      </td>
      <td>
        <label className="visually-hidden" htmlFor={`role-${account.name}`}>
          Role of {account.name}
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
              New password for {account.name}
            </label>
            <input
              id={`password-${account.name}`}
              className="input"
              type="password"
              autoComplete="new-password"
              minLength={MIN_PASSWORD_LENGTH}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
            <button type="submit" className="button button-small">
              Set password
            </button>
          </form>
        ) : (
          <button type="button" className="button button-small" onClick={() => setResetting(true)}>
            Reset password of {account.name}
          </button>
        )}
        <button
          type="button"
          className="button button-small button-danger-quiet"
          onClick={() => void change({ disabled: !account.disabled })}
        >
          {account.disabled ? 'Enable' : 'Disable'} {account.name}
        </button>
      </td>
    </tr>
  );
}

function AddAccountForm({ act }: { act: Act }) {
  const [name, setName] = useState('');
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
    <form className="accounts-form" onSubmit={(event) => void submit(event)} aria-label="Add an account">
      <label className="label" htmlFor="new-account-name">
        Name
      </label>
      <input id="new-account-name" className="input" value={name} onChange={(event) => setName(event.target.value)} />
      <label className="label" htmlFor="new-account-role">
        Role
      </label>
      <RoleSelect id="new-account-role" value={role} onChange={setRole} />
      <label className="label" htmlFor="new-account-password">
        Password
      </label>
      <input
        id="new-account-password"
        className="input"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <label className="label" htmlFor="new-account-types">
        Content types (optional, comma-separated)
      </label>
      <input
        id="new-account-types"
        className="input"
        value={types}
        onChange={(event) => setTypes(event.target.value)}
      />
      <button type="submit" className="button button-primary" disabled={!name.trim() || !password}>
        Add account
      </button>
    </form>
  );
}

function AddTokenForm({ act, onMade }: { act: Act; onMade(made: { name: string; token: string }): void }) {
  const [name, setName] = useState('');
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
    <form className="accounts-form" onSubmit={(event) => void submit(event)} aria-label="Add an API token">
      <label className="label" htmlFor="new-token-name">
        Token name
      </label>
      <input id="new-token-name" className="input" value={name} onChange={(event) => setName(event.target.value)} />
      <label className="label" htmlFor="new-token-role">
        Token role
      </label>
      <RoleSelect id="new-token-role" value={role} onChange={setRole} />
      <label className="label" htmlFor="new-token-types">
        Content types (optional)
      </label>
      <input id="new-token-types" className="input" value={types} onChange={(event) => setTypes(event.target.value)} />
      <label className="label" htmlFor="new-token-days">
        Expires after days (optional)
      </label>
      <input
        id="new-token-days"
        className="input"
        inputMode="numeric"
        value={days}
        onChange={(event) => setDays(event.target.value)}
      />
      <button type="submit" className="button button-primary" disabled={!name.trim()}>
        Add token
      </button>
    </form>
  );
}
