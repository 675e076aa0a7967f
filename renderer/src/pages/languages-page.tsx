import { type FormEvent, useCallback, useEffect, useState } from 'react';
import type { FieldProblems } from '../../../common/field-problems.js';
import type { LocalesDocument, SiteLocale } from '../../../common/locale-contract.js';
import { canonicalLocaleCode, checkLocalesDocument, findLocale } from '../../../common/locale-rules.js';
import { ApiError, describeError } from '../api/api-error.js';
import type { Tagged } from '../api/auth-api.js';
import { useAuth } from '../api/auth-context.js';
import { localesApi } from '../api/locales-api.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { IconArrowDown, IconArrowUp, IconClose, IconTrash } from '../components/icons.js';
import { LoadFailedState, LoadingState } from '../components/states.js';
import { useToast } from '../components/toasts.js';
import { IconButton } from '../components/ui/icon-button.js';
import { Select } from '../components/ui/select.js';
import { useDocumentTitle } from '../hooks/use-document-title.js';
import { problemMessage } from '../i18n/problem-messages.js';
import { useT } from '../i18n/use-t.js';
import '../styles/languages.css';

/** A locale's name in its own language (`de-AT`: “Deutsch (Österreich)”), the label a new locale is offered. */
export function suggestedLabel(code: string): string {
  const canonical = canonicalLocaleCode(code);
  if (canonical === null) return '';
  try {
    const name = new Intl.DisplayNames([canonical], { type: 'language' }).of(canonical) ?? '';
    return name === canonical ? '' : name.charAt(0).toLocaleUpperCase(canonical) + name.slice(1);
  } catch {
    return '';
  }
}

/**
 * Settings › Languages: the site's locales, its default, and each locale's fallback chain. Admins
 * change them and save the whole list at once; everyone else reads them.
 */
export function LanguagesPage() {
  const t = useT('pages-languages');
  useDocumentTitle(t('title'));
  const { me } = useAuth();
  // The locales with the ETag an admin's save sends in If-Match.
  const [saved, setSaved] = useState<Tagged<LocalesDocument> | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const load = useCallback(async () => {
    setFailure(null);
    try {
      setSaved(await localesApi.get());
    } catch (error) {
      setFailure(error);
    }
  }, []);
  useEffect(() => void load(), [load]);
  if (!saved) {
    return failure ? (
      <LoadFailedState title={t('loadFailed')} error={failure} onRetry={load} />
    ) : (
      <LoadingState label={t('loading')} />
    );
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
      {me.can.manage_types ? (
        <LanguagesEditor
          key={`${saved.etag} ${JSON.stringify(saved.body)}`}
          saved={saved.body}
          etag={saved.etag}
          onSaved={setSaved}
        />
      ) : (
        <LanguagesList document={saved.body} />
      )}
    </div>
  );
}

/** The locales, read only. */
function LanguagesList({ document }: { document: LocalesDocument }) {
  const t = useT('pages-languages');
  return (
    <section className="card settings-card" aria-labelledby="languages-heading">
      <h2 id="languages-heading" className="card-title">
        {t('locales')}
      </h2>
      <p className="muted">{t('readOnly')}</p>
      <LocaleItems document={document} testId="locale" />
    </section>
  );
}

/** Each locale with its label, code, default mark and fallback chain. */
function LocaleItems({ document, testId }: { document: LocalesDocument; testId: string }) {
  const t = useT('pages-languages');
  return (
    <ul className="locale-list">
      {document.locales.map((locale) => (
        <li key={locale.code} className="locale-item" data-testid={testId}>
          <div className="locale-head">
            <strong>{locale.label}</strong>
            <span className="locale-code">{locale.code}</span>
            {locale.code === document.default && <span className="badge">{t('default')}</span>}
          </div>
          <p className="muted">{chainText(document, locale, t)}</p>
        </li>
      ))}
    </ul>
  );
}

/**
 * What a save under a stale ETag meets: the locales as someone else saved them. Nothing of the
 * admin's is written; they load the current locales and make their change again over them.
 */
function StaleLocales({ current, onReload }: { current: LocalesDocument; onReload(): void }) {
  const t = useT('pages-languages');
  return (
    <section className="banner banner-error stale-locales" role="alert" aria-labelledby="stale-locales-heading">
      <div className="banner-text">
        <h2 id="stale-locales-heading" className="card-title">
          {t('stale.title')}
        </h2>
        <p>{t('stale.body')}</p>
        <LocaleItems document={current} testId="current-locale" />
        <button type="button" className="button" onClick={onReload}>
          {t('stale.reload')}
        </button>
      </div>
    </section>
  );
}

type T = ReturnType<typeof useT<'pages-languages'>>;

function chainText(document: LocalesDocument, locale: SiteLocale, t: T): string {
  const chain = locale.fallback ?? [];
  if (chain.length === 0) return t('noFallback');
  return t('fallsBackTo', { chain: chain.map((code) => findLocale(document, code)?.label ?? code).join(' → ') });
}

/** The locales as an admin changes them: saved together, a locale holding values removed only when confirmed. */
function LanguagesEditor({
  saved,
  etag,
  onSaved,
}: {
  saved: LocalesDocument;
  etag: string | null;
  onSaved(saved: Tagged<LocalesDocument>): void;
}) {
  const t = useT('pages-languages');
  const notify = useToast();
  const [draft, setDraft] = useState<LocalesDocument>(saved);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [inUse, setInUse] = useState<string | null>(null);
  const [stale, setStale] = useState<Tagged<LocalesDocument> | null>(null);
  const [focus, setFocus] = useState<string | null>(null);
  useEffect(() => {
    if (focus === null) return;
    (document.querySelector(focus) as HTMLElement | null)?.focus();
    setFocus(null);
  }, [focus]);
  const changed = JSON.stringify(draft) !== JSON.stringify(saved);
  const change = (code: string, update: (locale: SiteLocale) => SiteLocale) =>
    setDraft((now) => ({
      ...now,
      locales: now.locales.map((locale) => (locale.code === code ? update(locale) : locale)),
    }));
  const remove = (code: string) =>
    setDraft((now) => ({
      ...now,
      locales: now.locales
        .filter((locale) => locale.code !== code)
        .map((locale) =>
          withChain(
            locale,
            (locale.fallback ?? []).filter((other) => other !== code),
          ),
        ),
    }));
  const save = async (force: boolean) => {
    setSaving(true);
    setFailure(null);
    try {
      const written = await localesApi.replace(draft, { force, etag });
      setInUse(null);
      notify('success', t('saved'));
      onSaved(written);
    } catch (error) {
      const detail = error instanceof ApiError ? error.detail : null;
      const conflict = error instanceof ApiError ? error.stale : null;
      if (conflict?.current) {
        setInUse(null);
        setStale({ body: conflict.current as LocalesDocument, etag: conflict.etag });
      } else if (detail?.code === 'locale_in_use' && !force) {
        setInUse(t('inUse.holds', { locales: detail.locales.join(', '), count: detail.count }));
      } else {
        setInUse(null);
        setFailure(describeError(error));
      }
    } finally {
      setSaving(false);
    }
  };
  const checked = checkLocalesDocument(draft);
  return (
    <>
      {stale && <StaleLocales current={stale.body} onReload={() => onSaved(stale)} />}
      {failure && (
        <div className="banner banner-error" role="alert">
          <span className="banner-text">{failure}</span>
        </div>
      )}
      <section className="card settings-card" aria-labelledby="languages-heading">
        <h2 id="languages-heading" className="card-title">
          {t('locales')}
        </h2>
        <ul className="locale-list">
          {draft.locales.map((locale) => (
            <LocaleEditor
              key={locale.code}
              draft={draft}
              locale={locale}
              problems={checked.problems ?? {}}
              onLabel={(label) => change(locale.code, (now) => ({ ...now, label }))}
              onDefault={() => setDraft((now) => ({ ...now, default: locale.code }))}
              onChain={(chain, focusAfter) => {
                change(locale.code, (now) => withChain(now, chain));
                if (focusAfter) setFocus(focusAfter);
              }}
              onRemove={() => {
                remove(locale.code);
                setFocus('#new-locale-code');
              }}
            />
          ))}
        </ul>
        <div className="settings-form-actions">
          <button
            type="button"
            className="button button-primary"
            disabled={!changed || saving || stale !== null || checked.problems !== null}
            onClick={() => void save(false)}
          >
            {t('save')}
          </button>
          <button type="button" className="button" disabled={!changed || saving} onClick={() => setDraft(saved)}>
            {t('revert')}
          </button>
        </div>
      </section>
      <section className="card settings-card" aria-labelledby="add-locale-heading">
        <h2 id="add-locale-heading" className="card-title">
          {t('add.title')}
        </h2>
        <AddLocaleForm
          draft={draft}
          onAdd={(locale) => setDraft((now) => ({ ...now, locales: [...now.locales, locale] }))}
        />
      </section>
      {inUse !== null && (
        <ConfirmDialog
          title={t('inUse.title')}
          confirmLabel={t('inUse.confirm')}
          busy={saving}
          onConfirm={() => void save(true)}
          onCancel={() => setInUse(null)}
        >
          <p>{inUse}</p>
          <p>{t('inUse.body')}</p>
        </ConfirmDialog>
      )}
    </>
  );
}

function withChain(locale: SiteLocale, chain: string[]): SiteLocale {
  const { fallback: _fallback, ...rest } = locale;
  return chain.length > 0 ? { ...rest, fallback: chain } : rest;
}

/** A CSS selector of a locale's control (`up`, `down`, `remove` of a chain entry, `add`). */
function controlOf(code: string, control: string, entry = ''): string {
  return `[data-locale="${CSS.escape(code)}"] [data-control="${control}${entry ? `:${CSS.escape(entry)}` : ''}"]`;
}

function LocaleEditor({
  draft,
  locale,
  problems,
  onLabel,
  onDefault,
  onChain,
  onRemove,
}: {
  draft: LocalesDocument;
  locale: SiteLocale;
  problems: FieldProblems;
  onLabel(label: string): void;
  onDefault(): void;
  onChain(chain: string[], focusAfter?: string): void;
  onRemove(): void;
}) {
  const t = useT('pages-languages');
  const index = draft.locales.indexOf(locale);
  const isDefault = locale.code === draft.default;
  const chain = locale.fallback ?? [];
  const candidates = draft.locales.filter((other) => other.code !== locale.code && !chain.includes(other.code));
  const [adding, setAdding] = useState('');
  const labelId = `locale-label-${index}`;
  const chainProblem = problems[`locales[${index}].fallback`];
  const labelProblem = problems[`locales[${index}].label`];
  const labelOf = (code: string) => findLocale(draft, code)?.label ?? code;
  const move = (at: number, by: number) => {
    const next = [...chain];
    const [entry] = next.splice(at, 1);
    next.splice(at + by, 0, entry);
    const to = at + by;
    const control = to === 0 ? 'down' : to === next.length - 1 ? 'up' : by < 0 ? 'up' : 'down';
    onChain(next, controlOf(locale.code, control, entry));
  };
  return (
    <li className="card locale-item" data-testid="locale" data-locale={locale.code}>
      <div className="locale-head">
        <span className="locale-code">{locale.code}</span>
        <label htmlFor={labelId}>{t('label')}</label>
        <input
          id={labelId}
          className="input"
          value={locale.label}
          maxLength={100}
          aria-invalid={labelProblem !== undefined}
          aria-describedby={labelProblem ? `${labelId}-error` : undefined}
          onChange={(event) => onLabel(event.target.value)}
        />
        <label>
          <input type="radio" name="default-locale" checked={isDefault} onChange={onDefault} /> {t('default')}
        </label>
        <IconButton
          label={t('remove', { label: locale.label || locale.code })}
          tone="danger"
          disabled={isDefault}
          onClick={onRemove}
        >
          <IconTrash />
        </IconButton>
      </div>
      {labelProblem && (
        <p id={`${labelId}-error`} className="field-error">
          {t('label')} {problemMessage(labelProblem)}
        </p>
      )}
      {isDefault ? (
        <p className="muted">{t('defaultNoFallback')}</p>
      ) : (
        <>
          <h3 className="muted" id={`${labelId}-chain`}>
            {t('fallback')}
          </h3>
          {chain.length === 0 ? (
            <p className="muted">{t('noFallback')}</p>
          ) : (
            <ol className="fallback-list" aria-labelledby={`${labelId}-chain`}>
              {chain.map((code, at) => (
                <li key={code} className="fallback-item">
                  <span className="fallback-name">
                    {at + 1}. {labelOf(code)} <span className="locale-code">{code}</span>
                  </span>
                  <IconButton
                    label={t('moveUp', { label: labelOf(code) })}
                    data-control={`up:${code}`}
                    disabled={at === 0}
                    onClick={() => move(at, -1)}
                  >
                    <IconArrowUp />
                  </IconButton>
                  <IconButton
                    label={t('moveDown', { label: labelOf(code) })}
                    data-control={`down:${code}`}
                    disabled={at === chain.length - 1}
                    onClick={() => move(at, 1)}
                  >
                    <IconArrowDown />
                  </IconButton>
                  <IconButton
                    label={t('removeFallback', { label: labelOf(code) })}
                    onClick={() =>
                      onChain(
                        chain.filter((other) => other !== code),
                        controlOf(locale.code, 'add'),
                      )
                    }
                  >
                    <IconClose />
                  </IconButton>
                </li>
              ))}
            </ol>
          )}
          {chainProblem && (
            <p className="field-error" role="alert">
              {t('fallback')} {problemMessage(chainProblem)}
            </p>
          )}
          {candidates.length > 0 && (
            <div className="fallback-add">
              <label htmlFor={`${labelId}-add`}>{t('addFallback')}</label>
              <Select
                id={`${labelId}-add`}
                value={adding}
                options={[
                  { value: '', label: t('choose') },
                  ...candidates.map((other) => ({ value: other.code, label: `${other.label} (${other.code})` })),
                ]}
                onChange={setAdding}
              />
              <button
                type="button"
                className="button"
                data-control="add"
                disabled={adding === ''}
                onClick={() => {
                  onChain([...chain, adding]);
                  setAdding('');
                }}
              >
                {t('addToChain')}
              </button>
            </div>
          )}
        </>
      )}
    </li>
  );
}

function AddLocaleForm({ draft, onAdd }: { draft: LocalesDocument; onAdd(locale: SiteLocale): void }) {
  const t = useT('pages-languages');
  const [code, setCode] = useState('');
  const [label, setLabel] = useState('');
  const [labelTouched, setLabelTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const canonical = canonicalLocaleCode(code.trim());
    if (canonical === null || canonical === 'all') return setError(t('add.notACode'));
    if (findLocale(draft, canonical)) return setError(t('add.listed', { code: canonical }));
    const name = label.trim() || suggestedLabel(canonical) || canonical;
    onAdd({ code: canonical, label: name });
    setCode('');
    setLabel('');
    setLabelTouched(false);
    setError(null);
  };
  return (
    <form className="locale-add" onSubmit={submit} noValidate>
      <label htmlFor="new-locale-code">{t('add.code')}</label>
      <input
        id="new-locale-code"
        className="input"
        value={code}
        placeholder={t('add.example')}
        aria-invalid={error !== null}
        aria-describedby={error ? 'new-locale-error' : undefined}
        onChange={(event) => {
          setCode(event.target.value);
          setError(null);
          if (!labelTouched) setLabel(suggestedLabel(event.target.value.trim()));
        }}
      />
      <label htmlFor="new-locale-label">{t('label')}</label>
      <input
        id="new-locale-label"
        className="input"
        value={label}
        maxLength={100}
        onChange={(event) => {
          setLabel(event.target.value);
          setLabelTouched(true);
        }}
      />
      <button type="submit" className="button">
        {t('add.submit')}
      </button>
      {error && (
        <p id="new-locale-error" className="field-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
