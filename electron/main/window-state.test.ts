import { describe, expect, it } from 'vitest';
import { DEFAULT_WINDOW_SIZE, MIN_WINDOW_SIZE, restoreWindowState, windowTitle } from './window-state.js';

const laptop = { x: 0, y: 0, width: 1440, height: 876 };
const monitorOnTheRight = { x: 1440, y: 0, width: 2560, height: 1400 };

describe('restoring the window', () => {
  it('opens centered at the default size on first run', () => {
    expect(restoreWindowState(null, [laptop])).toEqual({ ...DEFAULT_WINDOW_SIZE, maximized: false });
  });

  it('fits the first window on a small screen', () => {
    const netbook = { x: 0, y: 0, width: 1024, height: 600 };
    expect(restoreWindowState(null, [netbook])).toEqual({ width: 1024, height: 600, maximized: false });
  });

  it('reopens where it was when that place is on a screen', () => {
    const saved = { x: 100, y: 50, width: 1000, height: 700, maximized: false };
    expect(restoreWindowState(saved, [laptop])).toEqual(saved);
  });

  it('keeps a window on a second monitor that is still attached', () => {
    const saved = { x: 2000, y: 100, width: 1600, height: 1000, maximized: true };
    expect(restoreWindowState(saved, [laptop, monitorOnTheRight])).toEqual(saved);
  });

  it('drops the position of a window left on a monitor that is gone', () => {
    const saved = { x: 2000, y: 100, width: 1200, height: 800, maximized: false };
    expect(restoreWindowState(saved, [laptop])).toEqual({ width: 1200, height: 800, maximized: false });
  });

  it('drops the position of a window whose title bar is above the screen', () => {
    const saved = { x: 100, y: -300, width: 1000, height: 700, maximized: false };
    expect(restoreWindowState(saved, [laptop])).toEqual({ width: 1000, height: 700, maximized: false });
  });

  it('drops the position when only a sliver of the title bar is visible', () => {
    const saved = { x: 1400, y: 100, width: 1000, height: 700, maximized: false };
    expect(restoreWindowState(saved, [laptop]).x).toBeUndefined();
  });

  it('shrinks a window larger than its screen, and grows one below the minimum', () => {
    expect(restoreWindowState({ width: 3000, height: 2000, maximized: false }, [laptop])).toEqual({
      width: 1440,
      height: 876,
      maximized: false,
    });
    expect(restoreWindowState({ width: 200, height: 100, maximized: false }, [laptop])).toEqual({
      ...MIN_WINDOW_SIZE,
      maximized: false,
    });
  });
});

describe('window title', () => {
  it("shows the page's title and the database's file name", () => {
    expect(windowTitle('News — Quire', '/home/ana/sites/blog.sqlite')).toBe('News — Quire — blog.sqlite');
    expect(windowTitle('', null)).toBe('Quire');
  });
});
