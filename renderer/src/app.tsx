import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AuthMeResponse } from '../../common/api-contract.js';
import { ApiProvider } from './api/api-context.js';
import { authApi, LOCAL_USER } from './api/auth-api.js';
import { AuthProvider, type AuthState, useAuth } from './api/auth-context.js';
import { type ApiClient, createApiClient, type TokenRequestReason } from './api/client.js';
import { ConfirmDialog } from './components/confirm-dialog.js';
import { LazyScreen, lazyNamed } from './components/lazy-screen.js';
import { Sidebar } from './components/sidebar.js';
import { EmptyState, ErrorState, LoadFailedState, LoadingState } from './components/states.js';
import { ToastProvider } from './components/toasts.js';
import { TokenDialog } from './components/token-dialog.js';
import { ContentTypesProvider, useContentTypes } from './hooks/content-types.js';
import { useDocumentTitle } from './hooks/use-document-title.js';
import { useStarterChoice } from './hooks/use-starter-choice.js';
import { useAccountLanguage } from './i18n/account-language.js';
import { useT } from './i18n/use-t.js';
import { ListPage } from './pages/list-page.js';
import { RowEditorPage } from './pages/row-editor-page.js';
import { SingleRowPage } from './pages/single-row-page.js';
import { RouterProvider, useLinkProps, useNavigate, usePendingNavigation, useRoute } from './routing/router.js';
import { EMPTY_LIST_STATE, routeHref } from './routing/routes.js';
import { useTransliteration } from './schema/slugify.js';

// Opening the editor needs only the lists and the row editor; every other screen is its own chunk,
// loaded the first time it shows (behind the loading state, see `LazyScreen`) with its catalogs.
const SETTINGS_PAGES = {
  accounts: lazyNamed(() => import('./pages/accounts-page.js'), 'AccountsPage', ['pages-accounts']),
  api: lazyNamed(() => import('./pages/api-reference-page.js'), 'ApiReferencePage', ['pages-api']),
  hooks: lazyNamed(() => import('./pages/hooks-page.js'), 'HooksPage', ['pages-hooks']),
  security: lazyNamed(() => import('./pages/account-security-page.js'), 'AccountSecurityPage', ['pages-security']),
  audit: lazyNamed(() => import('./pages/audit-page.js'), 'AuditPage', ['pages-audit']),
  media: lazyNamed(() => import('./pages/media-page.js'), 'MediaPage', ['pages-media']),
  languages: lazyNamed(() => import('./pages/languages-page.js'), 'LanguagesPage', ['pages-languages', 'problems']),
};
const ContentTypeEditorPage = lazyNamed(() => import('./pages/content-type-editor-page.js'), 'ContentTypeEditorPage', [
  'pages-types',
  'schema',
]);
const ContentTypesPage = lazyNamed(() => import('./pages/content-types-page.js'), 'ContentTypesPage', ['pages-types']);
const SignInPage = lazyNamed(() => import('./pages/sign-in-page.js'), 'SignInPage', ['pages-sign-in']);
const SecondFactorPage = lazyNamed(() => import('./pages/second-factor-page.js'), 'SecondFactorPage', [
  'pages-sign-in',
]);
const StarterChoicePage = lazyNamed(() => import('./pages/starter-choice-page.js'), 'StarterChoicePage', [
  'pages-starters',
]);
const TrashPage = lazyNamed(() => import('./pages/trash-page.js'), 'TrashPage', ['pages-trash']);

interface TokenRequest {
  reason: TokenRequestReason;
  resolve(token: string | null): void;
}

/** The whole editor. Tests pass their own API client; the real one talks to `/api` on this origin. */
export function EditorApp({ client }: { client?: ApiClient }) {
  // A test's own client stands for the local user; the real editor asks the server who is signed in.
  if (client) return <Editor client={client} auth={{ me: LOCAL_USER }} />;
  return <SignedInEditor />;
}

/**
 * Asks the server who is signed in: the editor itself when no one needs to sign in (no accounts:
 * the local user; or a run token, asked for by the token dialog), else the sign-in page. A
 * session that ends while the editor is open brings the sign-in page back.
 */
function SignedInEditor() {
  const t = useT('app');
  const [me, setMe] = useState<AuthMeResponse | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  useAccountLanguage(me);
  const load = useCallback(() => {
    setFailure(null);
    authApi.me().then(setMe, setFailure);
  }, []);
  useEffect(load, [load]);
  const signOut = useCallback(() => {
    setMe(null);
    setNotice(null);
    authApi.signOut().then(load, load);
  }, [load]);
  const sessionEnded = useCallback(() => {
    setMe(null);
    setNotice(t('sessionEnded'));
    load();
  }, [load, t]);
  if (failure) {
    return <LoadFailedState title={t('unreachable')} error={failure} onRetry={load} />;
  }
  if (!me) return <LoadingState label={t('connecting')} />;
  // A right password of an account with two-factor sign-in: its code next, no session yet.
  if (me.second_factor_required && me.second_factor_token) {
    return (
      <LazyScreen label={t('connecting')}>
        <SecondFactorPage token={me.second_factor_token} onSignedIn={setMe} onStartAgain={load} />
      </LazyScreen>
    );
  }
  // `--require-2fa`: a session without a second factor may only set one up.
  if (me.two_factor?.enrolment_required) {
    return (
      <LazyScreen label={t('connecting')}>
        <SETTINGS_PAGES.security required onDone={load} onSignOut={signOut} />
      </LazyScreen>
    );
  }
  if (!me.signed_in && me.accounts_exist) {
    return (
      <LazyScreen label={t('connecting')}>
        <SignInPage firstRun={false} notice={notice} onSignedIn={setMe} />
      </LazyScreen>
    );
  }
  // Signed in, or a server that wants its run token (the token dialog asks; it is an admin token).
  const state = me.signed_in ? me : { ...LOCAL_USER, signed_in: false, via: 'token' as const };
  return (
    <Editor
      auth={{ me: state, signOut: me.via === 'session' ? signOut : undefined, signedIn: setMe }}
      onSessionEnded={me.via === 'session' ? sessionEnded : undefined}
    />
  );
}

/** The editor itself, for whoever `auth` says is signed in. */
function Editor({
  client,
  auth,
  onSessionEnded,
}: {
  client?: ApiClient;
  auth: AuthState;
  onSessionEnded?: () => void;
}) {
  const [tokenRequest, setTokenRequest] = useState<TokenRequest | null>(null);
  const api = useMemo(
    () =>
      client ??
      createApiClient({
        requestToken: (reason) => {
          // A 401 with a session means it ended: sign in again rather than give a token.
          if (onSessionEnded) {
            onSessionEnded();
            return Promise.resolve(null);
          }
          return new Promise((resolve) => setTokenRequest({ reason, resolve }));
        },
      }),
    [client, onSessionEnded],
  );
  const answer = (token: string | null) => {
    tokenRequest?.resolve(token);
    setTokenRequest(null);
  };
  return (
    <ApiProvider client={api}>
      <AuthProvider state={auth}>
        <RouterProvider>
          <ToastProvider>
            <ContentTypesProvider>
              <Shell />
            </ContentTypesProvider>
          </ToastProvider>
        </RouterProvider>
      </AuthProvider>
      {tokenRequest && (
        <TokenDialog reason={tokenRequest.reason} onSubmit={(token) => answer(token)} onCancel={() => answer(null)} />
      )}
    </ApiProvider>
  );
}

function Shell() {
  const route = useRoute();
  const main = useRef<HTMLElement>(null);
  const currentType = route.name === 'list' || route.name === 'create' || route.name === 'row' ? route.type : null;
  const inSchema = route.name === 'content-types' || route.name === 'content-type';
  // A new screen or page starts at the top (typing a search does not jump).
  const screenKey = `${route.name}/${currentType}/${route.name === 'row' ? route.id : route.name === 'content-type' ? route.slug : ''}/${'list' in route ? route.list.page : ''}`;
  useEffect(() => {
    void screenKey;
    if (main.current) main.current.scrollTop = 0;
  }, [screenKey]);
  return (
    <div className="app">
      <Sidebar
        currentType={currentType}
        inSchema={inSchema}
        inAccounts={route.name === 'accounts'}
        inApi={route.name === 'api'}
        inHooks={route.name === 'hooks'}
        inAudit={route.name === 'audit'}
        inMedia={route.name === 'media'}
        inLanguages={route.name === 'languages'}
      />
      <main className="main" id="main" tabIndex={-1} ref={main}>
        <Screen />
      </main>
      <UnsavedChangesDialog />
    </div>
  );
}

function Screen() {
  const t = useT('app');
  const route = useRoute();
  const { me } = useAuth();
  const navigate = useNavigate();
  const { types, error, reload } = useContentTypes();
  const home = useLinkProps('/');
  const firstType = types?.[0]?.table;
  // A new site's first screen (for admins): keep the starter types or choose another start.
  const starters = useStarterChoice(route.name === 'home' && me.can.manage_types && firstType !== undefined);
  const offering = starters.state?.offer === true;
  // Just after a choice, the types loaded may still be the old ones: wait until they hold the new starters.
  const current = !starters.state || starters.state.starters.every((s) => types?.some((type) => type.slug === s.slug));

  useEffect(() => {
    if (route.name === 'home' && firstType && !starters.waiting && !offering && current) {
      navigate(routeHref({ name: 'list', type: firstType, list: EMPTY_LIST_STATE }), { replace: true });
    }
  }, [route.name, firstType, navigate, starters.waiting, offering, current]);

  if (error && !types) {
    return <LoadFailedState title={t('typesFailed')} error={error} onRetry={reload} />;
  }
  if (!types) return <LoadingState label={t('connecting')} />;
  if (route.name === 'home' && offering && starters.state) {
    return (
      <LazyScreen key="starters">
        <StarterChoicePage
          state={starters.state}
          choosing={starters.choosing}
          failure={starters.failure}
          onChoose={(set) => void starters.choose(set)}
        />
      </LazyScreen>
    );
  }
  if (route.name === 'home') {
    return types.length === 0 ? (
      <EmptyState
        title={t('noTypes.title')}
        action={
          <button
            type="button"
            className="button button-primary"
            onClick={() => navigate(routeHref({ name: 'content-type', slug: null }))}
          >
            {t('noTypes.create')}
          </button>
        }
      >
        {t('noTypes.body')}
      </EmptyState>
    ) : (
      <LoadingState label={t('common:states.opening')} />
    );
  }
  if (
    route.name === 'accounts' ||
    route.name === 'security' ||
    route.name === 'api' ||
    route.name === 'hooks' ||
    route.name === 'audit' ||
    route.name === 'media' ||
    route.name === 'languages'
  ) {
    const Page = SETTINGS_PAGES[route.name];
    return (
      <LazyScreen key={route.name}>
        <Page />
      </LazyScreen>
    );
  }
  if ((route.name === 'content-types' || route.name === 'content-type') && !me.can.manage_types) {
    return <ErrorState title={t('adminsOnly.title')} message={t('adminsOnly.message')} />;
  }
  if (route.name === 'content-types')
    return (
      <LazyScreen key="content-types">
        <ContentTypesPage />
      </LazyScreen>
    );
  if (route.name === 'content-type') {
    const edited = route.slug === null ? null : types.find((candidate) => candidate.slug === route.slug);
    if (edited === undefined) {
      return <NotFound message={t('notFound.typeSlug', { slug: route.slug })} homeLink={home} />;
    }
    return (
      <SlugsReady needed>
        <LazyScreen key={`content-type/${route.slug ?? 'new'}`}>
          <ContentTypeEditorPage type={edited} />
        </LazyScreen>
      </SlugsReady>
    );
  }
  if (route.name === 'unknown') {
    return <NotFound message={t('notFound.path', { path: route.path })} homeLink={home} />;
  }
  const type = types.find((candidate) => candidate.table === route.type);
  if (!type) return <NotFound message={t('notFound.typeName', { name: route.type })} homeLink={home} />;
  if (route.name === 'list' && type.type === 'single') {
    return (
      <SlugsReady needed={type.columns.some((column) => column.type === 'slug')}>
        <SingleRowPage key={type.table} type={type} list={route.list} />
      </SlugsReady>
    );
  }
  if (route.name === 'list') return <ListPage key={type.table} type={type} list={route.list} />;
  if (route.name === 'trash')
    return (
      <LazyScreen key={`trash/${type.table}`}>
        <TrashPage type={type} list={route.list} />
      </LazyScreen>
    );
  return (
    <SlugsReady needed={type.columns.some((column) => column.type === 'slug')}>
      <RowEditorPage key={type.table} type={type} id={route.name === 'row' ? route.id : null} list={route.list} />
    </SlugsReady>
  );
}

/** Shows a screen that makes slugs once the transliteration tables have loaded (see `slugify`). */
function SlugsReady({ needed, children }: { needed: boolean; children: ReactNode }) {
  const t = useT('common');
  return useTransliteration(needed) ? children : <LoadingState label={t('states.opening')} />;
}

function NotFound({ message, homeLink }: { message: string; homeLink: ReturnType<typeof useLinkProps> }) {
  const t = useT('app');
  useDocumentTitle(t('notFound.title'));
  return (
    <ErrorState
      title={t('notFound.title')}
      message={message}
      action={
        <a {...homeLink} className="button">
          {t('notFound.home')}
        </a>
      }
    />
  );
}

/** Asks before a navigation would throw away edits. */
function UnsavedChangesDialog() {
  const t = useT('app');
  const { pendingHref, confirmPending, cancelPending } = usePendingNavigation();
  if (pendingHref === null) return null;
  return (
    <ConfirmDialog
      title={t('unsaved.title')}
      confirmLabel={t('unsaved.discard')}
      cancelLabel={t('unsaved.keep')}
      onConfirm={confirmPending}
      onCancel={cancelPending}
    >
      <p>{t('unsaved.body')}</p>
    </ConfirmDialog>
  );
}
