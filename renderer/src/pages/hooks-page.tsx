import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { HOOK_ACTIONS, type HookAction, type HookSummary } from '../../../common/publishing-contract.js';
import { describeError } from '../api/api-error.js';
import { useAuth } from '../api/auth-context.js';
import { publishingApi } from '../api/publishing-api.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { HookDeliveries } from '../components/hook-deliveries.js';
import { EmptyState, ErrorState, LoadingState } from '../components/states.js';
import { useToast } from '../components/toasts.js';
import { useContentTypes } from '../hooks/content-types.js';
import { useDocumentTitle } from '../hooks/use-document-title.js';

const ACTION_TEXT: Record<HookAction, string> = {
  create: 'Created',
  update: 'Changed',
  delete: 'Deleted',
  restore: 'Restored',
};

/** Settings › Hooks (admins): build hooks, their delivery logs, Send test. */
export function HooksPage() {
  useDocumentTitle('Hooks');
  const { me } = useAuth();
  if (!me.can.manage_accounts) {
    return <ErrorState title="Only admins manage hooks" message="Ask an admin to add or change a build hook." />;
  }
  return <HooksAdmin />;
}

type Act = (change: () => Promise<unknown>) => Promise<boolean>;

function HooksAdmin() {
  const [hooks, setHooks] = useState<HookSummary[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const load = useCallback(async () => {
    try {
      setHooks((await publishingApi.hooks()).hooks);
    } catch (error) {
      setProblem(describeError(error));
    }
  }, []);
  useEffect(() => void load(), [load]);
  const act: Act = async (change) => {
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
  if (!hooks) {
    return problem ? (
      <ErrorState title="Couldn’t load hooks" message={problem} />
    ) : (
      <LoadingState label="Loading hooks…" />
    );
  }
  return (
    <div className="page">
      <header className="page-header">
        <div className="page-heading">
          <p className="eyebrow eyebrow-top">Settings</p>
          <h1 className="page-title">Hooks</h1>
          <p className="page-subtitle">
            Addresses Quire POSTs to a few seconds after content changes, to rebuild your site. Failed deliveries are
            retried for a day.
          </p>
        </div>
      </header>
      {problem && (
        <div className="banner banner-error" role="alert">
          <span className="banner-text">{problem}</span>
        </div>
      )}
      {secret && (
        <div className="banner" role="status">
          <span className="banner-text">
            The secret of {secret.url} is <code className="token-once">{secret.secret}</code>. Copy it to the receiver
            now: it is not shown again.
          </span>
        </div>
      )}
      <section className="accounts-section" aria-labelledby="hooks-heading">
        <h2 id="hooks-heading" className="card-title">
          Build hooks
        </h2>
        {hooks.length === 0 ? (
          <EmptyState title="No hooks yet">Add one below: a deploy hook of your host, or your own script.</EmptyState>
        ) : (
          <ul className="hook-list">
            {hooks.map((hook) => (
              <HookItem key={hook.id} hook={hook} act={act} />
            ))}
          </ul>
        )}
      </section>
      <section className="accounts-section" aria-labelledby="add-hook-heading">
        <h2 id="add-hook-heading" className="card-title">
          Add a hook
        </h2>
        <AddHookForm act={act} onSecret={setSecret} />
      </section>
    </div>
  );
}

function filtersText(hook: HookSummary): string {
  const types = hook.content_types === null ? 'every content type' : hook.content_types.join(', ');
  const actions =
    hook.actions === null ? 'every change' : hook.actions.map((action) => ACTION_TEXT[action].toLowerCase()).join(', ');
  return `${actions} · ${types}`;
}

function HookItem({ hook, act }: { hook: HookSummary; act: Act }) {
  const notify = useToast();
  const [showLog, setShowLog] = useState(false);
  const [testing, setTesting] = useState(false);
  const [version, setVersion] = useState(0);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const sendTest = async () => {
    setTesting(true);
    try {
      const delivery = await publishingApi.testHook(hook.id);
      if (delivery.status === 'test_delivered') notify('success', `Test delivered (${delivery.response_code})`);
      else notify('error', `Test failed: ${delivery.error ?? 'no answer'}`);
      setShowLog(true);
      setVersion((n) => n + 1);
    } catch (error) {
      notify('error', describeError(error));
    } finally {
      setTesting(false);
    }
  };
  return (
    <li className="card hook-item" data-testid="hook">
      <div className="hook-head">
        <div className="hook-summary">
          <code className="hook-url">{hook.url}</code>
          <span className="field-hint">
            {filtersText(hook)}
            {hook.has_secret ? ' · signed' : ''}
            {hook.waiting > 0 ? ` · ${hook.waiting} waiting` : ''}
            {hook.failures > 0 ? ` · ${hook.failures} failed in a row` : ''}
          </span>
        </div>
        <div className="account-actions">
          <button type="button" className="button button-small" onClick={() => void sendTest()} disabled={testing}>
            {testing ? 'Sending…' : 'Send test'}
          </button>
          <button
            type="button"
            className="button button-small"
            aria-expanded={showLog}
            onClick={() => setShowLog((shown) => !shown)}
          >
            {showLog ? 'Hide deliveries' : 'Deliveries'}
          </button>
          <button
            type="button"
            className="button button-small button-danger-quiet"
            onClick={() => setConfirmingDelete(true)}
          >
            Delete
          </button>
        </div>
      </div>
      {/* A new key after a test reads the log again. */}
      {showLog && <HookDeliveries key={version} hookId={hook.id} />}
      {confirmingDelete && (
        <ConfirmDialog
          title="Delete this hook?"
          confirmLabel="Delete"
          tone="danger"
          onConfirm={() => void act(() => publishingApi.removeHook(hook.id))}
          onCancel={() => setConfirmingDelete(false)}
        >
          <p>{hook.url} will no longer hear of changes; its waiting events and delivery log are removed with it.</p>
        </ConfirmDialog>
      )}
    </li>
  );
}

/** A random secret for signing: 32 bytes, URL-safe. */
function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

function AddHookForm({ act, onSecret }: { act: Act; onSecret(shown: { url: string; secret: string } | null): void }) {
  const { types } = useContentTypes();
  const [url, setUrl] = useState('');
  const [chosenTypes, setChosenTypes] = useState<string[]>([]);
  const [actions, setActions] = useState<HookAction[]>([]);
  const [secret, setSecret] = useState('');
  const toggle = <T,>(list: T[], item: T) => (list.includes(item) ? list.filter((x) => x !== item) : [...list, item]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    let created: { url: string; secret: string | null } | null = null;
    const done = await act(async () => {
      created = await publishingApi.addHook({
        url: url.trim(),
        content_types: chosenTypes.length === 0 ? null : chosenTypes,
        actions: actions.length === 0 ? null : actions,
        secret: secret === '' ? null : secret,
      });
    });
    if (done) {
      const made = created as { url: string; secret: string | null } | null;
      onSecret(made?.secret ? { url: made.url, secret: made.secret } : null);
      setUrl('');
      setSecret('');
      setChosenTypes([]);
      setActions([]);
    }
  };
  return (
    <form className="accounts-form hook-form" onSubmit={(event) => void submit(event)} aria-label="Add a hook">
      <label className="label" htmlFor="new-hook-url">
        URL
      </label>
      <input
        id="new-hook-url"
        className="input"
        type="url"
        placeholder="https://api.netlify.com/build_hooks/…"
        value={url}
        onChange={(event) => setUrl(event.target.value)}
      />
      <span className="label">Content types</span>
      <fieldset className="hook-choices" aria-label="Content types (none checked: all)">
        {(types ?? []).map((type) => (
          <label key={type.table} className="checkbox-label">
            <input
              type="checkbox"
              checked={chosenTypes.includes(type.table)}
              onChange={() => setChosenTypes((list) => toggle(list, type.table))}
            />
            {type.title}
          </label>
        ))}
        <span className="field-hint">None checked: all.</span>
      </fieldset>
      <span className="label">Changes</span>
      <fieldset className="hook-choices" aria-label="Changes (none checked: all)">
        {HOOK_ACTIONS.map((action) => (
          <label key={action} className="checkbox-label">
            <input
              type="checkbox"
              checked={actions.includes(action)}
              onChange={() => setActions((list) => toggle(list, action))}
            />
            {ACTION_TEXT[action]}
          </label>
        ))}
        <span className="field-hint">None checked: all.</span>
      </fieldset>
      <label className="label" htmlFor="new-hook-secret">
        Secret (optional)
      </label>
      <div className="input-group">
        <input
          id="new-hook-secret"
          className="input input-mono"
          value={secret}
          onChange={(event) => setSecret(event.target.value)}
          aria-describedby="new-hook-secret-hint"
        />
        <button type="button" className="button" onClick={() => setSecret(randomSecret())}>
          Generate
        </button>
      </div>
      <p id="new-hook-secret-hint" className="field-hint hook-form-hint">
        Signs each delivery: X-Quire-Signature: sha256=HMAC of the body. Shown once.
      </p>
      <button type="submit" className="button button-primary" disabled={!url.trim()}>
        Add hook
      </button>
    </form>
  );
}
