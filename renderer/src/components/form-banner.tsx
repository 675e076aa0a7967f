import type { RowReference } from '../../../common/api-contract.js';
import { useContentTypes } from '../hooks/content-types.js';
import { useT } from '../i18n/use-t.js';
import { useLinkProps } from '../routing/router.js';
import { EMPTY_LIST_STATE, routeHref } from '../routing/routes.js';
import { IconAlert, IconClose, IconLock } from './icons.js';

/** Props of the error banner above a form. */
export interface FormBannerProps {
  message: string;
  /** Problems the server named that belong to no field. */
  problems?: readonly string[];
  /** Rows that still point at the row a delete was refused for. */
  references?: readonly RowReference[];
  onDismiss(): void;
}

function ReferenceLink({ reference }: { reference: RowReference }) {
  const { types } = useContentTypes();
  const type = types?.find((candidate) => candidate.table === reference.table);
  const link = useLinkProps(
    routeHref({ name: 'row', type: reference.table, id: reference.id, list: EMPTY_LIST_STATE }),
  );
  const field = type?.columns.find((column) => column.name === reference.column)?.label ?? reference.column;
  return (
    <li>
      <a {...link} className="banner-link">
        {reference.title?.trim() || reference.id}
      </a>
      <span className="banner-note">
        {' '}
        · {type?.title ?? reference.table}, {field}
      </span>
    </li>
  );
}

/** A failure that belongs to no field: what went wrong, the problems and rows involved, and a close button. */
export function FormBanner({ message, problems = [], references = [], onDismiss }: FormBannerProps) {
  const t = useT('components');
  return (
    <div className="banner banner-error" role="alert">
      <IconAlert />
      <div className="banner-text">
        <p>{message}</p>
        {problems.length > 0 && (
          <ul>
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        )}
        {references.length > 0 && (
          <ul className="banner-references" aria-label={t('banner.references')}>
            {references.map((reference) => (
              <ReferenceLink key={`${reference.table}/${reference.id}/${reference.column}`} reference={reference} />
            ))}
          </ul>
        )}
      </div>
      <button type="button" className="banner-close" onClick={onDismiss} aria-label={t('banner.dismiss')}>
        <IconClose />
      </button>
    </div>
  );
}

/** Why a form is read-only, said once above it (its fields are disabled, its actions hidden). */
export function ReadOnlyNote({ message }: { message: string }) {
  return (
    <div className="banner banner-info" role="note">
      <IconLock />
      <div className="banner-text">
        <p>{message}</p>
      </div>
    </div>
  );
}
