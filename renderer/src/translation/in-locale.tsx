import type { ReactNode } from 'react';
import type { ContentTypeSummary } from '../../../common/api-contract.js';
import { LazyScreen, lazyNamed } from '../components/lazy-screen.js';
import type { ListState } from '../routing/routes.js';
import { isTranslatable } from '../schema/type-facts.js';
import type { LocaleView } from './locale-view.js';

// The locale switcher, the marks and side by side are needed only by types with translatable fields.
const LocalizedPage = lazyNamed(() => import('./localized-pages.js'), 'LocalizedPage', ['translations']);

/** Props of a page that may show a locale. */
export interface InLocaleProps {
  type: ContentTypeSummary;
  /** The row editor's row (null: a new one); left out by the list. */
  id?: string | null;
  list: ListState;
  /** Draws the page in `locale` (null: as on a site without translations). */
  render(locale: LocaleView | null): ReactNode;
}

/** A row editor or list: in a locale for a type with translatable fields, else drawn at once. */
export function InLocale(props: InLocaleProps) {
  if (!isTranslatable(props.type)) return props.render(null);
  return (
    <LazyScreen>
      <LocalizedPage {...props} />
    </LazyScreen>
  );
}
