import { useEffect, useState } from 'react';
import type { UnusedMediaResponse } from '../../../common/api-contract.js';
import { formatByteSize } from '../../../common/byte-size.js';
import { useApi } from '../api/api-context.js';

const numbers = new Intl.NumberFormat();

/**
 * How many uploads no row uses (uploaded over an hour ago), and how to delete them; nothing when
 * every upload is used. Asked for once per visit of the screen.
 */
export function UnusedMediaNote() {
  const api = useApi();
  const [unused, setUnused] = useState<UnusedMediaResponse | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    // The count is a hint: when it cannot be had, the screen simply goes without it.
    api.unusedMedia(controller.signal).then(setUnused, () => undefined);
    return () => controller.abort();
  }, [api]);
  if (!unused || unused.count === 0) return null;
  const files = unused.count === 1 ? 'upload is' : 'uploads are';
  return (
    <p className="unused-media-note muted" role="status">
      {numbers.format(unused.count)} {files} not used by any row ({formatByteSize(unused.bytes)}).{' '}
      <code>quire media prune</code> lists them; <code>quire media prune --yes</code> deletes them.
    </p>
  );
}
