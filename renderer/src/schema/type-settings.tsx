import { Trans } from 'react-i18next';
import type { ContentTypeKind } from '../../../common/api-contract.js';
import { IconRefresh } from '../components/icons.js';
import { Select } from '../components/ui/select.js';
import { useContentTypes } from '../hooks/content-types.js';
import { useT } from '../i18n/use-t.js';
import { LabeledControl } from './labeled-control.js';
import { TakenNameMessage, TakeSuggestionButton, takeSuggestion } from './taken-name.js';
import { followTitle, setSlug, setTable, setTitle, type TypeDraft } from './type-draft.js';
import { type TypePart, takenByLoaded } from './type-errors.js';
import type { TypeEditor } from './use-type-editor.js';

/**
 * The type itself: title, slug and table (made from the title until edited, fixed once the type
 * exists), and the preview path template.
 */
export function TypeSettings({ editor }: { editor: TypeEditor }) {
  const { draft, errors, update } = editor;
  const t = useT('schema');
  const isNew = editor.saved === null;
  const fixed = t('settings.fixed');
  const edit = (change: (current: TypeDraft) => TypeDraft, part: TypePart) => update(change, { type: part });
  const { types } = useContentTypes();
  // Said as soon as a loaded type holds the name; the server's refusal says it for names it alone knows.
  const taken = editor.taken ?? (isNew ? takenByLoaded(draft.slug, draft.table, types ?? []) : null);
  // A taken slug or table names its holder (a link) and offers the free slug the server proposed.
  const takenError = (part: 'slug' | 'table') =>
    taken?.part === part ? <TakenNameMessage taken={taken} /> : errors.type[part];
  const suggestion = taken?.suggestion ? { ...taken, suggestion: taken.suggestion } : null;
  const takeAction = (part: 'slug' | 'table') =>
    suggestion && suggestion.part === part ? (
      <TakeSuggestionButton
        suggestion={suggestion.suggestion}
        onTake={() => edit((current) => takeSuggestion(current, suggestion), part)}
      />
    ) : undefined;
  return (
    <section className="card schema-card" aria-labelledby="type-settings-heading">
      <header className="card-header">
        <div>
          <h2 id="type-settings-heading" className="card-title">
            {t('settings.title')}
          </h2>
          <p className="card-subtitle">{t('settings.subtitle')}</p>
        </div>
      </header>
      <div className="schema-grid">
        <LabeledControl
          id="type-title"
          label={t('settings.typeTitle')}
          error={errors.type.title}
          className="schema-span-2"
        >
          {(control) => (
            <input
              {...control}
              className="input"
              value={draft.title}
              onChange={(event) => edit((current) => setTitle(current, event.target.value), 'title')}
              placeholder={t('settings.titlePlaceholder')}
              autoComplete="off"
              required
            />
          )}
        </LabeledControl>
        <LabeledControl
          id="type-slug"
          label={t('settings.slug')}
          error={takenError('slug')}
          errorAction={takeAction('slug')}
          hint={isNew ? (draft.slugFollows ? t('settings.slugFollows') : undefined) : fixed}
        >
          {(control) => (
            <div className="input-group">
              <input
                {...control}
                className="input input-mono"
                value={draft.slug}
                readOnly={!isNew}
                onChange={(event) => edit((current) => setSlug(current, event.target.value), 'slug')}
                autoComplete="off"
                spellCheck={false}
              />
              {isNew && !draft.slugFollows && (
                <button
                  type="button"
                  className="button button-ghost input-addon button-icon-only"
                  onClick={() => edit(followTitle, 'slug')}
                  aria-label={t('settings.follow')}
                  title={t('settings.followTitle')}
                >
                  <IconRefresh />
                </button>
              )}
            </div>
          )}
        </LabeledControl>
        <LabeledControl
          id="type-table"
          label={t('settings.table')}
          error={takenError('table')}
          errorAction={takeAction('table')}
          hint={isNew ? (draft.tableFollows ? t('settings.rowsAt', { table: draft.table || '…' }) : undefined) : fixed}
        >
          {(control) => (
            <input
              {...control}
              className="input input-mono"
              value={draft.table}
              readOnly={!isNew}
              onChange={(event) => edit((current) => setTable(current, event.target.value), 'table')}
              autoComplete="off"
              spellCheck={false}
            />
          )}
        </LabeledControl>
        <LabeledControl
          id="type-kind"
          label={t('settings.kind')}
          error={errors.type.type}
          className="schema-span-2"
          hint={t('settings.kindHint', { table: draft.table || '…' })}
        >
          {(control) => (
            <Select
              {...control}
              value={draft.kind}
              options={[
                { value: 'collection', label: t('settings.kindCollection') },
                { value: 'single', label: t('settings.kindSingle') },
              ]}
              onChange={(kind) => edit((current) => ({ ...current, kind: kind as ContentTypeKind }), 'type')}
            />
          )}
        </LabeledControl>
        <LabeledControl
          id="type-preview-path"
          label={t('settings.previewPath')}
          error={errors.type.preview_path}
          className="schema-span-2"
          hint={
            <Trans
              t={t}
              i18nKey="settings.previewHint"
              values={{ slug: '{slug}', id: '{id}' }}
              components={{ code: <code /> }}
            />
          }
        >
          {(control) => (
            <input
              {...control}
              className="input input-mono"
              value={draft.previewPath}
              onChange={(event) => edit((current) => ({ ...current, previewPath: event.target.value }), 'preview_path')}
              placeholder={t('settings.previewPlaceholder')}
              autoComplete="off"
              spellCheck={false}
            />
          )}
        </LabeledControl>
      </div>
    </section>
  );
}
