import { basename } from 'node:path';
import type { WindowState } from './settings-store.js';

/** A screen rectangle (Electron's `Rectangle`). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Size of the window on first run. */
export const DEFAULT_WINDOW_SIZE = { width: 1280, height: 820 };
/** The smallest window the editor's layout is designed for. */
export const MIN_WINDOW_SIZE = { width: 720, height: 480 };
/** How much of the window's top strip must be on a screen for it to be grabbed and moved. */
const TITLE_BAR = { height: 32, minVisibleWidth: 120 };

function intersection(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null;
}

/** True when the window's title bar is visible enough on some screen to be grabbed. */
function titleBarReachable(bounds: Rect, workAreas: Rect[]): boolean {
  const titleBar = { x: bounds.x, y: bounds.y, width: bounds.width, height: TITLE_BAR.height };
  return workAreas.some((area) => {
    const visible = intersection(titleBar, area);
    return visible !== null && visible.width >= TITLE_BAR.minVisibleWidth && bounds.y >= area.y;
  });
}

function clampSize(size: { width: number; height: number }, limit: { width: number; height: number }) {
  return {
    width: Math.max(MIN_WINDOW_SIZE.width, Math.min(size.width, limit.width)),
    height: Math.max(MIN_WINDOW_SIZE.height, Math.min(size.height, limit.height)),
  };
}

/**
 * The bounds to open the window with, from the saved state and the screens' work areas now. A
 * window saved on a monitor that is gone, or dragged off the top of the screen, would open where
 * nobody can reach it: its position is dropped (the window opens centered). A size larger than
 * the screen is shrunk to fit. The first work area is the primary display's.
 */
export function restoreWindowState(saved: WindowState | null, workAreas: Rect[]): WindowState {
  const primary = workAreas[0] ?? { x: 0, y: 0, ...DEFAULT_WINDOW_SIZE };
  if (!saved) return { ...clampSize(DEFAULT_WINDOW_SIZE, primary), maximized: false };
  if (saved.x !== undefined && saved.y !== undefined) {
    const bounds = { x: saved.x, y: saved.y, width: saved.width, height: saved.height };
    if (titleBarReachable(bounds, workAreas)) {
      const screen = workAreas.find((area) => intersection(bounds, area)) ?? primary;
      return { x: saved.x, y: saved.y, ...clampSize(saved, screen), maximized: saved.maximized };
    }
  }
  return { ...clampSize(saved, primary), maximized: saved.maximized };
}

/** The window title: the page's title and the open database's file name. */
export function windowTitle(pageTitle: string, dbFile: string | null): string {
  const page = pageTitle.trim() || 'Quire';
  return dbFile ? `${page} — ${basename(dbFile)}` : page;
}
