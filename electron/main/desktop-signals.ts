// What the desktop app tells the `npm start` launcher (scripts/start.mjs) through its output and
// exit code, declared once for both sides.

/** Start of the line the app prints once the editor is open in its window. */
export const EDITOR_OPEN_PREFIX = 'Quire desktop: editor open at ';

/** The line the app prints once the editor is open in its window. */
export function editorOpenLine(origin: string, dbFile: string): string {
  return `${EDITOR_OPEN_PREFIX}${origin}/ (database ${dbFile})`;
}

/**
 * Exit code of an app that could not start and already told the user why (a dialog): the launcher
 * must not fall back to the headless server, which would fail the same way.
 */
export const EXIT_REPORTED_FAILURE = 3;
