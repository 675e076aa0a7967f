import type { FlatNamespace } from 'i18next';
import { useTranslation } from 'react-i18next';
import './i18n-instance.js';

/**
 * The `t` of one namespace, which also reaches the shared one as `common:` (`const t =
 * useT('components')`; `t('toasts.dismiss')`, `t('common:actions.cancel')`). The component
 * re-renders when the language changes. Outside components, use `i18n.t('ns:key')`.
 */
export function useT<N extends FlatNamespace>(namespace: N) {
  return useTranslation([namespace, 'common']).t;
}
