import { Trans } from 'react-i18next';
import { tableFromSlug } from '../../../common/naming-rules.js';
import { useT } from '../i18n/use-t.js';
import { useLinkProps } from '../routing/router.js';
import { routeHref } from '../routing/routes.js';
import { setSlug, setTable, type TypeDraft } from './type-draft.js';
import type { TakenName } from './type-errors.js';

/** The end of “Slug is taken by the content type Articles”, the holder's name a link to its schema. */
export function TakenNameMessage({ taken }: { taken: TakenName }) {
  const t = useT('schema');
  const link = useLinkProps(routeHref({ name: 'content-type', slug: taken.type }));
  return (
    <Trans
      t={t}
      i18nKey={taken.suggestion ? 'taken.bySuggest' : 'taken.by'}
      values={{ title: taken.title, suggestion: taken.suggestion }}
      components={{ holder: <a {...link} className="field-error-link" />, code: <code /> }}
    />
  );
}

/** The draft with the proposed free slug taken: the slug (its table following), or the table by hand. */
export function takeSuggestion(draft: TypeDraft, taken: TakenName & { suggestion: string }): TypeDraft {
  return taken.part === 'slug' ? setSlug(draft, taken.suggestion) : setTable(draft, tableFromSlug(taken.suggestion));
}

/** The one-click answer to a taken name: take the free slug the server proposed. */
export function TakeSuggestionButton({ suggestion, onTake }: { suggestion: string; onTake(): void }) {
  const t = useT('schema');
  return (
    <button type="button" className="button button-small field-error-action" onClick={onTake}>
      {t('taken.use', { suggestion })}
    </button>
  );
}
