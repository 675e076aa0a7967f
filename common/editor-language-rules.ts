/**
 * The languages the editor's interface speaks, by BCP 47 code, in the order the picker lists them.
 * The editor's catalogs and the account preference the server stores both follow this list.
 */
export const EDITOR_LANGUAGES = ['en', 'de', 'fr', 'es'] as const;

/** One of the editor's languages. */
export type EditorLanguage = (typeof EDITOR_LANGUAGES)[number];

/** Whether `value` is one of the editor's languages. */
export function isEditorLanguage(value: unknown): value is EditorLanguage {
  return typeof value === 'string' && (EDITOR_LANGUAGES as readonly string[]).includes(value);
}
