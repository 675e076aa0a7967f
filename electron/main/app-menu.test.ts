import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { apiDocumentationUrl, buildMenuTemplate, type MenuActions, type MenuState } from './app-menu.js';

function recordingActions() {
  const calls: string[] = [];
  const actions: MenuActions = {
    newDatabase: () => calls.push('newDatabase'),
    openDatabase: () => calls.push('openDatabase'),
    openRecent: (file) => calls.push(`openRecent ${file}`),
    clearRecent: () => calls.push('clearRecent'),
    showDatabaseInFolder: () => calls.push('showDatabaseInFolder'),
    copyApiUrl: () => calls.push('copyApiUrl'),
    openApiDocs: () => calls.push('openApiDocs'),
  };
  return { calls, actions };
}

const state: MenuState = {
  platform: 'linux',
  isDevelopment: false,
  recentDatabases: ['/home/ana/blog.sqlite', '/home/ana/shop.sqlite'],
  databaseFile: '/home/ana/blog.sqlite',
};

function submenu(item: MenuItemConstructorOptions | undefined): MenuItemConstructorOptions[] {
  return (item?.submenu ?? []) as MenuItemConstructorOptions[];
}

function find(items: MenuItemConstructorOptions[], label: string) {
  const item = items.find((candidate) => candidate.label?.replace('&', '') === label);
  if (!item) throw new Error(`no menu item ${label}`);
  return item;
}

/** Labels or roles, the way the menu reads; separators as '-'. */
function outline(items: MenuItemConstructorOptions[]): string[] {
  return items.map((item) => (item.type === 'separator' ? '-' : (item.label ?? item.role ?? '?')));
}

function click(item: MenuItemConstructorOptions): void {
  (item.click as () => void)();
}

describe('application menu', () => {
  it('has File, Edit, View and Help on Windows and Linux', () => {
    const { actions } = recordingActions();
    expect(outline(buildMenuTemplate(state, actions))).toEqual(['&File', '&Edit', '&View', '&Help']);
  });

  it('adds the app menu first and a Window menu on macOS', () => {
    const { actions } = recordingActions();
    const menu = buildMenuTemplate({ ...state, platform: 'darwin' }, actions);
    expect(outline(menu)).toEqual(['appMenu', '&File', '&Edit', '&View', 'windowMenu', '&Help']);
    expect(submenu(menu[1]).at(-1)?.role).toBe('close');
  });

  it('File holds the database commands and Copy API URL, each wired to its action', () => {
    const { calls, actions } = recordingActions();
    const file = submenu(find(buildMenuTemplate(state, actions), 'File'));
    expect(outline(file)).toEqual([
      'New Database...',
      'Open Database...',
      'Open Recent',
      '-',
      'Show Database in Folder',
      'Copy API URL',
      '-',
      'quit',
    ]);
    for (const label of ['New Database...', 'Open Database...', 'Show Database in Folder', 'Copy API URL']) {
      click(find(file, label));
    }
    expect(calls).toEqual(['newDatabase', 'openDatabase', 'showDatabaseInFolder', 'copyApiUrl']);
  });

  it('Open Recent lists the recent databases, checks the open one, and can be cleared', () => {
    const { calls, actions } = recordingActions();
    const recent = submenu(find(submenu(find(buildMenuTemplate(state, actions), 'File')), 'Open Recent'));
    expect(outline(recent)).toEqual(['/home/ana/blog.sqlite', '/home/ana/shop.sqlite', '-', 'Clear Recent']);
    expect(recent.map((item) => item.checked)).toEqual([true, false, undefined, undefined]);
    click(recent[1]);
    click(recent[3]);
    expect(calls).toEqual(['openRecent /home/ana/shop.sqlite', 'clearRecent']);
  });

  it('shows an empty, disabled Open Recent on first run', () => {
    const { actions } = recordingActions();
    const menu = buildMenuTemplate({ ...state, recentDatabases: [] }, actions);
    const recent = submenu(find(submenu(find(menu, 'File')), 'Open Recent'));
    expect(recent).toEqual([{ label: 'No Recent Databases', enabled: false }]);
  });

  it('disables the commands that need an open database while none is served', () => {
    const { actions } = recordingActions();
    const file = submenu(find(buildMenuTemplate({ ...state, databaseFile: null }, actions), 'File'));
    expect(find(file, 'Show Database in Folder').enabled).toBe(false);
    expect(find(file, 'Copy API URL').enabled).toBe(false);
    expect(find(file, 'New Database...').enabled).toBeUndefined();
  });

  it('Edit uses the standard roles', () => {
    const { actions } = recordingActions();
    const edit = submenu(find(buildMenuTemplate(state, actions), 'Edit'));
    expect(outline(edit)).toEqual(['undo', 'redo', '-', 'cut', 'copy', 'paste', 'delete', '-', 'selectAll']);
  });

  it('View offers reload and developer tools only in development', () => {
    const { actions } = recordingActions();
    const packaged = outline(submenu(find(buildMenuTemplate(state, actions), 'View')));
    const development = outline(submenu(find(buildMenuTemplate({ ...state, isDevelopment: true }, actions), 'View')));
    expect(packaged).not.toContain('reload');
    expect(packaged).not.toContain('toggleDevTools');
    expect(packaged).toEqual(['resetZoom', 'zoomIn', 'zoomOut', '-', 'togglefullscreen']);
    expect(development.slice(0, 3)).toEqual(['reload', 'forceReload', 'toggleDevTools']);
  });

  it('Help opens the API documentation', () => {
    const { calls, actions } = recordingActions();
    const help = submenu(find(buildMenuTemplate(state, actions), 'Help'));
    expect(outline(help)).toEqual(['API Documentation']);
    click(help[0]);
    expect(calls).toEqual(['openApiDocs']);
  });
});

describe('API documentation address', () => {
  it("is the README's API section on the project homepage", () => {
    expect(apiDocumentationUrl('https://github.com/example/quire#readme', '/app/README.md')).toBe(
      'https://github.com/example/quire#api',
    );
  });

  it('is the API page shipped with the app when there is no web homepage', () => {
    expect(apiDocumentationUrl(undefined, '/opt/Quire/resources/app/docs/api.md')).toBe(
      'file:///opt/Quire/resources/app/docs/api.md',
    );
    expect(apiDocumentationUrl('javascript:alert(1)', '/app/docs/api.md')).toBe('file:///app/docs/api.md');
  });
});
