import type { StarterSetName, StartersResponse } from '../../../common/starter-contract.js';
import { describeError } from '../api/api-error.js';
import { IconAlert } from '../components/icons.js';
import { useDocumentTitle } from '../hooks/use-document-title.js';

/** What each choice's button says. */
const ACTIONS: Record<StarterSetName, string> = {
  keep: 'Keep the starter types',
  empty: 'Start empty',
  blog: 'Use the blog types',
  docs: 'Use the docs types',
};

/** “News, Categories and Articles”. */
function listOf(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
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
  useDocumentTitle('Start your site');
  const starters = state.starters.map((starter) => starter.title);
  return (
    <div className="page starter-choice">
      <header className="page-header">
        <div className="page-heading">
          <p className="eyebrow">A new site</p>
          <h1 className="page-title">How should this site start?</h1>
          <p className="page-subtitle starter-intro">
            It holds {starters.length} starter content {starters.length === 1 ? 'type' : 'types'}, all still empty:{' '}
            {listOf(starters)}. They are a news site’s types, there so the API has something to answer. Keep them, or
            choose another start; you can change every type later.
          </p>
        </div>
      </header>
      {failure !== null && (
        <div className="banner banner-error" role="alert">
          <IconAlert />
          <div className="banner-text">
            <p>
              <strong>That start was not applied.</strong> {describeError(failure)}
            </p>
          </div>
        </div>
      )}
      <ul className="starter-sets" aria-label="Ways to start">
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
                  ? 'No content types.'
                  : `Content types: ${listOf(set.types.map((type) => type.title))}.`}
              </p>
              <button
                type="button"
                className={set.set === 'keep' ? 'button button-primary' : 'button'}
                onClick={() => onChoose(set.set)}
                disabled={choosing}
              >
                {ACTIONS[set.set]}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
