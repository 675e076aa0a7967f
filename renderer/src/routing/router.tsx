import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { parseLocation, type Route } from './routes.js';

/** How to navigate: `replace` rewrites the current history entry; `force` skips the unsaved-changes check. */
export interface NavigateOptions {
  replace?: boolean;
  force?: boolean;
}

interface RouterValue {
  route: Route;
  /** The current path and query. */
  href: string;
  navigate(href: string, options?: NavigateOptions): void;
  /** A navigation held back by unsaved changes, waiting for the user to decide. */
  pendingHref: string | null;
  confirmPending(): void;
  cancelPending(): void;
  /** Registers "leaving would lose work"; returns the unregister function. */
  block(): () => void;
}

const RouterContext = createContext<RouterValue | null>(null);

const currentHref = () => `${window.location.pathname}${window.location.search}`;

/**
 * A small History-API router: the URL is the source of truth for where the user is. Navigations
 * (links, back/forward) are held while a page reports unsaved changes, so the user can decide.
 */
export function RouterProvider({ children }: { children: ReactNode }) {
  const [href, setHref] = useState(currentHref);
  const [pendingHref, setPendingHref] = useState<string | null>(null);
  const blockers = useRef(0);
  const hrefRef = useRef(href);
  hrefRef.current = href;

  const go = useCallback((target: string, replace: boolean) => {
    if (replace) window.history.replaceState(null, '', target);
    else if (target !== hrefRef.current) window.history.pushState(null, '', target);
    setHref(currentHref());
  }, []);

  const navigate = useCallback(
    (target: string, options: NavigateOptions = {}) => {
      if (blockers.current > 0 && !options.force && target !== hrefRef.current) {
        setPendingHref(target);
        return;
      }
      go(target, options.replace ?? false);
    },
    [go],
  );

  useEffect(() => {
    const onPopState = () => {
      const target = currentHref();
      if (blockers.current > 0) {
        // The browser already moved; put the edited page back until the user decides.
        window.history.pushState(null, '', hrefRef.current);
        setPendingHref(target);
        return;
      }
      setHref(target);
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (blockers.current === 0) return;
      event.preventDefault();
      // Older Chromium (Electron) still needs returnValue set to show the prompt.
      event.returnValue = '';
    };
    window.addEventListener('popstate', onPopState);
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      window.removeEventListener('popstate', onPopState);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, []);

  const block = useCallback(() => {
    blockers.current++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      blockers.current--;
    };
  }, []);

  const value = useMemo<RouterValue>(() => {
    const url = new URL(href, 'http://editor.invalid');
    return {
      route: parseLocation(url.pathname, url.search),
      href,
      navigate,
      pendingHref,
      confirmPending() {
        if (pendingHref === null) return;
        setPendingHref(null);
        go(pendingHref, false);
      },
      cancelPending: () => setPendingHref(null),
      block,
    };
  }, [href, navigate, pendingHref, go, block]);

  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

function useRouter(): RouterValue {
  const router = useContext(RouterContext);
  if (!router) throw new Error('Router hooks need a RouterProvider');
  return router;
}

/** The current route. */
export function useRoute(): Route {
  return useRouter().route;
}

/** The navigate function (stable across renders). */
export function useNavigate(): RouterValue['navigate'] {
  return useRouter().navigate;
}

/** The held navigation and the user's two answers, for the unsaved-changes dialog. */
export function usePendingNavigation() {
  const { pendingHref, confirmPending, cancelPending } = useRouter();
  return { pendingHref, confirmPending, cancelPending };
}

/** While `when` is true, navigations ask first and closing the window warns. */
export function useNavigationBlocker(when: boolean): void {
  const { block } = useRouter();
  useEffect(() => (when ? block() : undefined), [when, block]);
}

/** Props of an in-app link: a real `<a href>` (middle-click, copy link) that navigates without reloading. */
export function useLinkProps(href: string): { href: string; onClick: (event: React.MouseEvent) => void } {
  const navigate = useNavigate();
  return {
    href,
    onClick(event) {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
      if (event.altKey) return;
      event.preventDefault();
      navigate(href);
    },
  };
}
