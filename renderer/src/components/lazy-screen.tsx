import type { FlatNamespace } from 'i18next';
import { Component, type ComponentType, type LazyExoticComponent, lazy, type ReactNode, Suspense } from 'react';
import { ensureNamespaces } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';
import { ErrorState, LoadingState } from './states.js';

/**
 * A component of a module that loads on its first render, as its own chunk: screens and dialogs
 * that opening the editor does not need (admin pages, settings, the revision compare with its
 * word diff) stay out of the initial load. `React.lazy` wants a default export; this takes a named one.
 * The message catalogs the opening does not hold (`namespaces`) load beside the code, not after it.
 */
// biome-ignore lint/suspicious/noExplicitAny: the constraint React.lazy itself puts on a component
export function lazyNamed<M extends Record<K, ComponentType<any>>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
  namespaces: readonly FlatNamespace[] = [],
): LazyExoticComponent<M[K]> {
  return lazy(async () => {
    const [module] = await Promise.all([load(), ensureNamespaces(namespaces)]);
    return { default: module[name] };
  });
}

/**
 * Shows lazily loaded `children`: the app's loading state while their chunk loads, and an error
 * with a reload (a new build replaces the old chunks) if it cannot load. Key it by screen so
 * going elsewhere tries again.
 */
export function LazyScreen({ label, children }: { label?: string; children: ReactNode }) {
  const t = useT('common');
  return (
    <ChunkFailure>
      <Suspense fallback={<LoadingState label={label ?? t('states.opening')} />}>{children}</Suspense>
    </ChunkFailure>
  );
}

/** Catches a chunk that failed to load (or a screen that failed to render), so that part shows an error instead of the editor going blank. */
class ChunkFailure extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return <ChunkFailed />;
  }
}

function ChunkFailed() {
  const t = useT('common');
  return (
    <ErrorState
      title={t('states.notShown')}
      message={t('states.notLoaded')}
      action={
        <button type="button" className="button" onClick={() => window.location.reload()}>
          {t('actions.reload')}
        </button>
      }
    />
  );
}
