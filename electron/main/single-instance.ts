import type { App } from 'electron';

/**
 * Makes this the only running Quire (two apps serving one database from two windows would
 * confuse anyone). Returns false in a second launch, which should quit; the first instance gets
 * `onSecondLaunch` and brings its window forward.
 */
export function claimSingleInstance(app: App, onSecondLaunch: () => void): boolean {
  if (!app.requestSingleInstanceLock()) return false;
  app.on('second-instance', () => onSecondLaunch());
  return true;
}
