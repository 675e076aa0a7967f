import type { StarterSetName, StartersResponse } from '../../../common/starter-contract.js';
import { describeError } from '../api/api-error.js';
import { IconAlert } from '../components/icons.js';
import { useDocumentTitle } from '../hooks/use-document-title.js';
import { i18n } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';

/** “News, Categories and Articles”, the last two joined by the editor's language's “and”. */
function listOf(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return i18n.t('common:list.and', { items: names.slice(0, -1).join(', '), last: names[names.length - 1] });
}

/**
 * The first screen of a new site: what its starter content types are, and the choice to keep them,
 * start empty, or take another starter set, one sentence each. Shown until an admin chooses.
 */
export function StarterChoicePage({
  state,
  choosing,
  failure,
  onChoose,
}: {
  state: StartersResponse;
  choosing: boolean;
  failure: unknown;
  onChoose(set: StarterSetName): void;
}) {
  const t = useT('pages-starters');
  useDocumentTitle(t('documentTitle'));
  const starters = state.starters.map((starter) => starter.title);
  return (
    <div className="page starter-choice">
      <header className="page-header">
        <div className="page-heading">
          <p className="eyebrow">{t('eyebrow')}</p>
          <h1 className="page-title">{t('title')}</h1>
          <p className="page-subtitle starter-intro">
            {t('intro', { count: starters.length, types: listOf(starters) })}
          </p>
        </div>
      </header>
      {failure !== null && (
        <div className="banner banner-error" role="alert">
          <IconAlert />
          <div className="banner-text">
            <p>
              <strong>{t('failed')}</strong> {describeError(failure)}
            </p>
          </div>
        </div>
      )}
      <ul className="starter-sets" aria-label={t('ways')}>
        {state.sets.map((set) => {
          const headingId = `starter-set-${set.set}`;
          return (
            <li key={set.set} className="card starter-set">
              <h2 id={headingId} className="card-title">
                {set.title}
              </h2>
              <p className="starter-set-text">{set.description}</p>
              <p className="starter-set-types">
                {set.types.length === 0
                  ? t('noTypes')
                  : t('types', { types: listOf(set.types.map((type) => type.title)) })}
              </p>
              <button
                type="button"
                className={set.set === 'keep' ? 'button button-primary' : 'button'}
                onClick={() => onChoose(set.set)}
                disabled={choosing}
              >
                {t(`actions.${set.set}`)}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
