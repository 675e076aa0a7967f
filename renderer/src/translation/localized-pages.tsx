import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { LocalesDocument } from '../../../common/locale-contract.js';
import { useApi } from '../api/api-context.js';
import { useAuth } from '../api/auth-context.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { LoadingState } from '../components/states.js';
import { Select } from '../components/ui/select.js';
import { useT } from '../i18n/use-t.js';
import { useLocaleChoice } from './content-locale.js';
import type { InLocaleProps } from './in-locale.js';
import { LocaleMarks, SourceValue } from './locale-marks.js';
import type { LocaleView } from './locale-view.js';
import { ownValues, rowFallbacks } from './row-locale.js';
import { isListed, localeLabel, sourceFor, useSiteLocales } from './site-locales.js';
import '../styles/translation.css';

/** The list filter's URL key of the "missing in" filter (see list-filters.ts): the locale's code. */
const MISSING_FILTER = 'locale.missing';

/**
 * The row editor or the list of a type with translatable fields. Once the site's locales are
 * read: with one locale, the page as it always is; with more, in the locale this person last
 * chose (the default locale at first), with a switcher, each translatable field marked with its
 * locale and badged where it falls back, side-by-side translation on the row editor, and a
 * "missing in" filter on the list.
 */
export function LocalizedPage(props: InLocaleProps) {
  const t = useT('common');
  const site = useSiteLocales();
  if (site.isPending) {
    return (
      <div className="page">
        <LoadingState label={t('states.loading')} />
      </div>
    );
  }
  // Without the locales (or with one), rows read and write as on a site without translations.
  if (!site.data || site.data.locales.length < 2) return props.render(null);
  return <PageInLocale {...props} site={site.data} />;
}

function PageInLocale({ site, type, id, list, render }: InLocaleProps & { site: LocalesDocument }) {
  const api = useApi();
  const { me } = useAuth();
  const t = useT('translations');
  const tf = useT('components');
  const [chosen, choose] = useLocaleChoice('content', me.name);
  const [remembered, rememberSource] = useLocaleChoice('source', me.name);
  // The locale asked for while the form had unsaved edits, until the person confirms or cancels.
  const [asked, setAsked] = useState<string | null>(null);
  // The remembered locale while the site lists it, else the default. A new row is written in the
  // default locale, where its required fields are (it can be translated once saved).
  const code = id !== null && isListed(site, chosen) ? chosen : site.default;
  const labelOf = (locale: string) => localeLabel(site, locale);
  const options = site.locales.map((locale) => ({ value: locale.code, label: locale.label, lang: locale.code }));
  // Side by side (a saved row only) is on while a source is remembered: that one, or another one
  // when it is the locale shown.
  const source =
    id == null || !remembered
      ? null
      : isListed(site, remembered) && remembered !== code
        ? remembered
        : sourceFor(site, code);
  const sourceRead = useQuery({
    queryKey: ['row-source', type.table, id, source],
    queryFn: async ({ signal }) => (await api.getRow(type.table, id ?? '', signal, source ?? undefined)).rows[0],
    enabled: source !== null,
    gcTime: 0,
  });
  // A link naming a locale the site no longer lists narrows nothing.
  const missingAsked = list.filters[MISSING_FILTER] ?? null;
  const missing = id === undefined && isListed(site, missingAsked) ? missingAsked : null;
  const switcher = (onChange: (code: string) => void) => (
    <Select
      id="content-locale"
      size="small"
      aria-label={t('language')}
      value={code}
      options={options}
      onChange={onChange}
      disabled={id === null}
      title={id === null ? t('newInDefault', { language: labelOf(code) }) : undefined}
    />
  );

  const view: LocaleView = {
    code,
    labelOf,
    missing,
    controls: (dirty, setFilters) =>
      setFilters ? (
        <>
          <div className="filter">
            <label htmlFor="content-locale" className="filter-label">
              {t('language')}
            </label>
            <Select id="content-locale" value={code} options={options} onChange={choose} />
          </div>
          <div className="filter">
            <label htmlFor="filter-missing" className="filter-label">
              {t('translation')}
            </label>
            <Select
              id="filter-missing"
              value={missing ?? ''}
              options={[
                { value: '', label: tf('filters.all') },
                ...site.locales.map((locale) => ({
                  value: locale.code,
                  label: t('missingIn', { language: locale.label }),
                })),
              ]}
              onChange={(next) => setFilters({ ...list.filters, [MISSING_FILTER]: next })}
            />
          </div>
        </>
      ) : (
        <div className="locale-controls">
          {switcher((next) => (dirty ? setAsked(next) : choose(next)))}
          {id != null && (
            <button
              type="button"
              className="button button-ghost button-small"
              aria-pressed={source !== null}
              onClick={() => rememberSource(source !== null ? '' : (sourceFor(site, code) ?? ''))}
            >
              {t('sideBySide')}
            </button>
          )}
          {source !== null && (
            <Select
              id="source-locale"
              size="small"
              aria-label={t('source')}
              value={source}
              options={options.filter((option) => option.value !== code)}
              onChange={rememberSource}
            />
          )}
        </div>
      ),
    field: (column, row) => {
      // Outside the default locale, a shared field says that a change there changes every locale.
      if (!column.localized) return code === site.default ? undefined : { marks: <SharedMark /> };
      const from = rowFallbacks(row)[column.name];
      const fallbackValue = from === undefined ? undefined : row?.[column.name];
      return {
        marks: <LocaleMarks code={code} label={labelOf(code)} from={from === undefined ? undefined : labelOf(from)} />,
        placeholder: typeof fallbackValue === 'string' ? fallbackValue : undefined,
        optional: code !== site.default,
        beside:
          source === null ? undefined : (
            <SourceValue column={column} code={source} row={sourceRead.data} labelOf={labelOf} />
          ),
      };
    },
    own: ownValues,
  };
  return (
    <>
      {render(view)}
      {asked !== null && (
        <SwitchDialog
          onConfirm={() => {
            choose(asked);
            setAsked(null);
          }}
          onCancel={() => setAsked(null)}
        />
      )}
    </>
  );
}

/** The mark of a field every locale shares: short, with what it means for screen readers and on hover. */
function SharedMark() {
  const t = useT('translations');
  return (
    <span className="badge badge-gray locale-shared" title={t('sharedHint')}>
      {t('shared')}
      <span className="visually-hidden"> {t('sharedHint')}</span>
    </span>
  );
}

/** Asks before switching the locale drops the form's unsaved edits. */
function SwitchDialog({ onConfirm, onCancel }: { onConfirm(): void; onCancel(): void }) {
  const t = useT('app');
  return (
    <ConfirmDialog
      title={t('unsaved.title')}
      confirmLabel={t('unsaved.discard')}
      cancelLabel={t('unsaved.keep')}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>{t('unsaved.body')}</p>
    </ConfirmDialog>
  );
}
