import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { Trans } from 'react-i18next';
import { HOOK_ACTIONS, type HookAction, type HookSummary } from '../../../common/publishing-contract.js';
import { describeError } from '../api/api-error.js';
import { useAuth } from '../api/auth-context.js';
import { publishingApi } from '../api/publishing-api.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { HookDeliveries } from '../components/hook-deliveries.js';
import { EmptyState, ErrorState, LoadingState } from '../components/states.js';
import { useToast } from '../components/toasts.js';
import { MultiSelect } from '../components/ui/multi-select.js';
import { useContentTypes } from '../hooks/content-types.js';
import { useDocumentTitle } from '../hooks/use-document-title.js';
import { i18n } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';
import { LabeledControl } from '../schema/labeled-control.js';

/** Settings › Hooks (admins): build hooks, their delivery logs, Send test. */
export function HooksPage() {
  const t = useT('pages-hooks');
  useDocumentTitle(t('title'));
  const { me } = useAuth();
  if (!me.can.manage_accounts) {
    return <ErrorState title={t('adminsOnly.title')} message={t('adminsOnly.message')} />;
  }
  return <HooksAdmin />;
}

type Act = (change: () => Promise<unknown>) => Promise<boolean>;

function HooksAdmin() {
  const t = useT('pages-hooks');
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
    return problem ? <ErrorState title={t('loadFailed')} message={problem} /> : <LoadingState label={t('loading')} />;
  }
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
      {secret && (
        <div className="banner" role="status">
          <span className="banner-text">
            <Trans
              t={t}
              i18nKey="secretOnce"
              values={{ url: secret.url, secret: secret.secret }}
              components={{ code: <code className="token-once" /> }}
            />
          </span>
        </div>
      )}
      <section className="card settings-card" aria-labelledby="hooks-heading">
        <h2 id="hooks-heading" className="card-title">
          {t('buildHooks')}
        </h2>
        {hooks.length === 0 ? (
          <EmptyState title={t('empty.title')}>{t('empty.body')}</EmptyState>
        ) : (
          <ul className="hook-list">
            {hooks.map((hook) => (
              <HookItem key={hook.id} hook={hook} act={act} />
            ))}
          </ul>
        )}
      </section>
      <section className="card settings-card" aria-labelledby="add-hook-heading">
        <h2 id="add-hook-heading" className="card-title">
          {t('add.title')}
        </h2>
        <AddHookForm act={act} onSecret={setSecret} />
      </section>
    </div>
  );
}

function filtersText(hook: HookSummary): string {
  const types = hook.content_types === null ? i18n.t('pages-hooks:everyType') : hook.content_types.join(', ');
  const actions =
    hook.actions === null
      ? i18n.t('pages-hooks:everyChange')
      : hook.actions.map((action) => i18n.t(`pages-hooks:actionsInline.${action}`)).join(', ');
  return `${actions} · ${types}`;
}

function HookItem({ hook, act }: { hook: HookSummary; act: Act }) {
  const t = useT('pages-hooks');
  const notify = useToast();
  const [showLog, setShowLog] = useState(false);
  const [testing, setTesting] = useState(false);
  const [version, setVersion] = useState(0);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const sendTest = async () => {
    setTesting(true);
    try {
      const delivery = await publishingApi.testHook(hook.id);
      if (delivery.status === 'test_delivered')
        notify('success', t('test.delivered', { code: delivery.response_code }));
      else notify('error', t('test.failed', { reason: delivery.error ?? t('test.noAnswer') }));
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
            {hook.has_secret ? ` · ${t('signed')}` : ''}
            {hook.waiting > 0 ? ` · ${t('waiting', { count: hook.waiting })}` : ''}
            {hook.failures > 0 ? ` · ${t('failures', { count: hook.failures })}` : ''}
          </span>
        </div>
        <div className="account-actions">
          <button type="button" className="button button-small" onClick={() => void sendTest()} disabled={testing}>
            {testing ? t('test.sending') : t('test.send')}
          </button>
          <button
            type="button"
            className="button button-small"
            aria-expanded={showLog}
            onClick={() => setShowLog((shown) => !shown)}
          >
            {showLog ? t('deliveries.hide') : t('deliveries.show')}
          </button>
          <button
            type="button"
            className="button button-small button-danger-quiet"
            onClick={() => setConfirmingDelete(true)}
          >
            {t('common:actions.delete')}
          </button>
        </div>
      </div>
      {/* A new key after a test reads the log again. */}
      {showLog && <HookDeliveries key={version} hookId={hook.id} />}
      {confirmingDelete && (
        <ConfirmDialog
          title={t('deleteDialog.title')}
          confirmLabel={t('common:actions.delete')}
          tone="danger"
          onConfirm={() => void act(() => publishingApi.removeHook(hook.id))}
          onCancel={() => setConfirmingDelete(false)}
        >
          <p>{t('deleteDialog.body', { url: hook.url })}</p>
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
  const t = useT('pages-hooks');
  const { types } = useContentTypes();
  const [url, setUrl] = useState('');
  const [chosenTypes, setChosenTypes] = useState<string[]>([]);
  const [actions, setActions] = useState<HookAction[]>([]);
  const [secret, setSecret] = useState('');
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
    <form className="field-grid hook-form" onSubmit={(event) => void submit(event)} aria-label={t('add.title')}>
      <LabeledControl id="new-hook-url" label={t('add.url')}>
        {(control) => (
          <input
            {...control}
            className="input"
            type="url"
            placeholder={t('add.urlPlaceholder')}
            value={url}
            onChange={(event) => setUrl(event.target.value)}
          />
        )}
      </LabeledControl>
      <LabeledControl id="new-hook-types" label={t('add.types')}>
        {(control) => (
          <MultiSelect
            id={control.id}
            values={chosenTypes}
            options={(types ?? []).map((type) => ({ value: type.table, label: type.title }))}
            onChange={setChosenTypes}
            emptyText={t('add.everyType')}
            listLabel={t('add.types')}
          />
        )}
      </LabeledControl>
      <LabeledControl id="new-hook-changes" label={t('add.changes')}>
        {(control) => (
          <MultiSelect
            id={control.id}
            values={actions}
            options={HOOK_ACTIONS.map((action) => ({ value: action, label: t(`actions.${action}`) }))}
            onChange={(chosen) => setActions(chosen as HookAction[])}
            emptyText={t('add.everyChange')}
            listLabel={t('add.changes')}
          />
        )}
      </LabeledControl>
      <LabeledControl id="new-hook-secret" label={t('add.secret')} hint={t('add.secretHint')}>
        {(control) => (
          <div className="input-group">
            <input
              {...control}
              className="input input-mono"
              value={secret}
              onChange={(event) => setSecret(event.target.value)}
            />
            <button type="button" className="button" onClick={() => setSecret(randomSecret())}>
              {t('add.generate')}
            </button>
          </div>
        )}
      </LabeledControl>
      <div className="settings-form-actions">
        <button type="submit" className="button button-primary" disabled={!url.trim()}>
          {t('add.submit')}
        </button>
      </div>
    </form>
  );
}
