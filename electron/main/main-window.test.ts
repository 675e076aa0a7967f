import { describe, expect, it } from 'vitest';
import { mainWindowOptions } from './main-window.js';

const base = {
  state: { width: 1200, height: 800, maximized: false },
  isDevelopment: false,
  iconFile: null,
  databaseFile: () => null,
  onStateChange: () => {},
};

describe('main window options', () => {
  it("follow Electron's security checklist: sandboxed, context-isolated, no Node, no webviews", () => {
    expect(mainWindowOptions(base).webPreferences).toEqual({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      devTools: false,
    });
    expect(mainWindowOptions(base).webPreferences).not.toHaveProperty('preload');
  });

  it('allow developer tools only in development', () => {
    expect(mainWindowOptions({ ...base, isDevelopment: true }).webPreferences?.devTools).toBe(true);
  });

  it('place the window where it was, or let Electron center it', () => {
    expect(
      mainWindowOptions({ ...base, state: { x: 10, y: 20, width: 900, height: 700, maximized: false } }),
    ).toMatchObject({
      x: 10,
      y: 20,
      width: 900,
      height: 700,
      show: false,
    });
    const centered = mainWindowOptions(base);
    expect(centered).not.toHaveProperty('x');
    expect(centered).not.toHaveProperty('y');
  });
});
