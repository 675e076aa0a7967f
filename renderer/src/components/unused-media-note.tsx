import { useEffect, useState } from 'react';
import { Trans } from 'react-i18next';
import type { UnusedMediaResponse } from '../../../common/api-contract.js';
import { useApi } from '../api/api-context.js';
import { useFormatters } from '../i18n/formatters.js';
import { useT } from '../i18n/use-t.js';

/**
 * How many uploads no row uses (uploaded over an hour ago), and how to delete them; nothing when
 * every upload is used. Asked for once per visit of the screen.
 */
export function UnusedMediaNote() {
  const api = useApi();
  const t = useT('components');
  const format = useFormatters();
  const [unused, setUnused] = useState<UnusedMediaResponse | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    // The count is a hint: when it cannot be had, the screen simply goes without it.
    api.unusedMedia(controller.signal).then(setUnused, () => undefined);
    return () => controller.abort();
  }, [api]);
  if (!unused || unused.count === 0) return null;
  return (
    <p className="unused-media-note muted" role="status">
      {t('unusedMedia.count', { count: unused.count, size: format.byteSize(unused.bytes) })}{' '}
      <Trans t={t} i18nKey="unusedMedia.prune" components={{ code: <code /> }} />
    </p>
  );
}
