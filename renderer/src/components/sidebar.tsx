import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { typeAllowed } from '../../../common/access-rules.js';
import type { ContentTypeSummary } from '../../../common/api-contract.js';
import { useAuth } from '../api/auth-context.js';
import { useContentTypes } from '../hooks/content-types.js';
import { useRowCounts } from '../hooks/use-row-counts.js';
import { useFormatters } from '../i18n/formatters.js';
import { LanguagePicker } from '../i18n/language-picker.js';
import { useT } from '../i18n/use-t.js';
import { useLinkProps, useRoute } from '../routing/router.js';
import { EMPTY_LIST_STATE, routeHref } from '../routing/routes.js';
import { ThemePicker } from '../theme/theme-picker.js';
import {
  IconAudit,
  IconCode,
  IconCollection,
  IconGlobe,
  IconImage,
  IconKeyboard,
  IconLayers,
  IconLock,
  IconMenu,
  IconWebhook,
} from './icons.js';
import { KeyboardHelpDialog, useHelpShortcut } from './keyboard-help-dialog.js';
import { matchesShortcut, SHORTCUTS } from './keyboard-shortcuts.js';

function TypeLink({ type, current, count }: { type: ContentTypeSummary; current: boolean; count: number | undefined }) {
  const link = useLinkProps(routeHref({ name: 'list', type: type.table, list: EMPTY_LIST_STATE }));
  const format = useFormatters();
  return (
    <li>
      <a {...link} className="nav-link" aria-current={current ? 'page' : undefined}>
        <IconCollection />
        <span className="nav-link-text">{type.title}</span>
        {count !== undefined && (
          <span className="nav-count" aria-hidden="true">
            {format.number(count)}
          </span>
        )}
      </a>
    </li>
  );
}

/**
 * The content types (links named by their titles), the current one highlighted; then the settings,
 * the person, the pickers and the keyboard shortcuts (also on `?`). A "Skip to content" link comes
 * first. On a narrow window (styles/layout.css) all but the brand fold behind a menu button: Escape
 * or choosing a screen folds it again, and focus goes back to the button.
 */
export function Sidebar({
  currentType,
  inSchema,
  inAccounts = false,
  inApi = false,
  inHooks = false,
  inAudit = false,
  inMedia = false,
  inLanguages = false,
}: {
  currentType: string | null;
  inSchema: boolean;
  inAccounts?: boolean;
  inApi?: boolean;
  inHooks?: boolean;
  inAudit?: boolean;
  inMedia?: boolean;
  inLanguages?: boolean;
}) {
  const t = useT('app');
  const { me, signOut } = useAuth();
  const { types: allTypes } = useContentTypes();
  // A person limited to some content types sees only those (the server refuses the others).
  const limit = me.content_types;
  const types = useMemo(() => allTypes?.filter((type) => typeAllowed(limit, type)) ?? null, [allTypes, limit]);
  const accounts = useLinkProps(routeHref({ name: 'accounts' }));
  // Admins manage accounts; the local user may make the first one (first run).
  const showAccounts = me.can.manage_accounts && (me.via !== 'local' || me.first_run);
  const counts = useRowCounts(types);
  const home = useLinkProps('/');
  const schema = useLinkProps(routeHref({ name: 'content-types' }));
  const apiReference = useLinkProps(routeHref({ name: 'api' }));
  const security = useLinkProps(routeHref({ name: 'security' }));
  const hooks = useLinkProps(routeHref({ name: 'hooks' }));
  const audit = useLinkProps(routeHref({ name: 'audit' }));
  const media = useLinkProps(routeHref({ name: 'media' }));
  const languages = useLinkProps(routeHref({ name: 'languages' }));
  const apiUrl = `${window.location.origin}/api`;
  const menu = useFoldedMenu();
  const [helpOpen, setHelpOpen] = useState(false);
  useHelpShortcut(() => setHelpOpen(true));
  return (
    <>
      {/* The main area takes focus (tabIndex -1), so the link moves focus past the navigation, not only the view. */}
      <a href="#main" className="skip-link">
        {t('sidebar.skipToContent')}
      </a>
      <aside className="sidebar" data-menu={menu.open ? 'open' : 'folded'} onKeyDown={menu.onKeyDown}>
        <div className="sidebar-bar">
          <a {...home} className="brand">
            <img src="/favicon.svg" alt="" width={26} height={26} />
            <span className="brand-name">{t('common:product')}</span>
          </a>
          <button
            ref={menu.button}
            type="button"
            className="button button-ghost button-icon sidebar-menu-button"
            aria-expanded={menu.open}
            aria-controls={menu.panelId}
            aria-label={t('sidebar.menu')}
            onClick={menu.toggle}
          >
            <IconMenu />
          </button>
        </div>
        <div id={menu.panelId} className="sidebar-panel">
          <nav aria-label={t('sidebar.contentTypesNav')} className="nav">
            <h2 className="nav-heading">{t('sidebar.content')}</h2>
            {types === null ? (
              <ul className="nav-list" aria-hidden="true">
                {[0, 1].map((n) => (
                  <li key={n} className="nav-skeleton" />
                ))}
              </ul>
            ) : (
              <ul className="nav-list">
                {types.map((type) => (
                  <TypeLink
                    key={type.table}
                    type={type}
                    current={type.table === currentType}
                    // A single type's one row is not counted: its link opens that row's form.
                    count={type.type === 'single' ? undefined : counts[type.table]}
                  />
                ))}
              </ul>
            )}
            <ul className="nav-list">
              <li>
                <a {...media} className="nav-link" aria-current={inMedia ? 'page' : undefined}>
                  <IconImage />
                  <span className="nav-link-text">{t('sidebar.media')}</span>
                </a>
              </li>
            </ul>
          </nav>
          <nav aria-label={t('sidebar.settingsNav')} className="nav nav-settings">
            <h2 className="nav-heading">{t('sidebar.settings')}</h2>
            <ul className="nav-list">
              {me.can.manage_types && (
                <li>
                  <a {...schema} className="nav-link" aria-current={inSchema ? 'page' : undefined}>
                    <IconLayers />
                    <span className="nav-link-text">{t('sidebar.contentTypes')}</span>
                  </a>
                </li>
              )}
              <li>
                <a {...languages} className="nav-link" aria-current={inLanguages ? 'page' : undefined}>
                  <IconGlobe />
                  <span className="nav-link-text">{t('sidebar.languages')}</span>
                </a>
              </li>
              {showAccounts && (
                <li>
                  <a {...accounts} className="nav-link" aria-current={inAccounts ? 'page' : undefined}>
                    <IconLock />
                    <span className="nav-link-text">{t('sidebar.accounts')}</span>
                  </a>
                </li>
              )}
              {me.can.manage_accounts && (
                <li>
                  <a {...hooks} className="nav-link" aria-current={inHooks ? 'page' : undefined}>
                    <IconWebhook />
                    <span className="nav-link-text">{t('sidebar.hooks')}</span>
                  </a>
                </li>
              )}
              {me.can.manage_accounts && me.content_types === null && (
                <li>
                  <a {...audit} className="nav-link" aria-current={inAudit ? 'page' : undefined}>
                    <IconAudit />
                    <span className="nav-link-text">{t('sidebar.audit')}</span>
                  </a>
                </li>
              )}
              <li>
                <a {...apiReference} className="nav-link" aria-current={inApi ? 'page' : undefined}>
                  <IconCode />
                  <span className="nav-link-text">{t('sidebar.api')}</span>
                </a>
              </li>
            </ul>
          </nav>
          {me.via === 'session' && (
            <div className="sidebar-user">
              <span className="sidebar-user-name" data-testid="signed-in-as">
                {me.name}
              </span>
              <span className="sidebar-user-role">{me.role && t(`common:roles.${me.role}`)}</span>
              <a {...security} className="button button-small button-ghost">
                {t('sidebar.security')}
              </a>
              {signOut && (
                <button type="button" className="button button-small button-ghost" onClick={signOut}>
                  {t('sidebar.signOut')}
                </button>
              )}
            </div>
          )}
          <LanguagePicker className="sidebar-language" />
          <ThemePicker className="sidebar-theme" />
          <button
            type="button"
            className="button button-small button-ghost sidebar-help"
            onClick={() => setHelpOpen(true)}
          >
            <IconKeyboard />
            {t('sidebar.shortcuts')}
            <span className="sidebar-help-key" aria-hidden="true">
              <kbd>{SHORTCUTS.help.key}</kbd>
            </span>
          </button>
          <div className="sidebar-footer">
            <span className="connection-dot" aria-hidden="true" />
            <span className="sidebar-footer-text" title={apiUrl}>
              {window.location.host}
            </span>
          </div>
        </div>
      </aside>
      {helpOpen && <KeyboardHelpDialog onClose={() => setHelpOpen(false)} />}
    </>
  );
}

/**
 * The sidebar's menu on a narrow window: open or folded, folded again by Escape (focus back on the
 * button) and by going to another screen. On a wide window the styles show the panel whatever the state.
 */
function useFoldedMenu() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const route = useRoute();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new route is the reason to fold
  useEffect(() => setOpen(false), [route]);
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!open || !matchesShortcut(event, SHORTCUTS.close)) return;
    event.preventDefault();
    setOpen(false);
    button.current?.focus();
  };
  return { open, toggle: () => setOpen((now) => !now), button, panelId, onKeyDown };
}
