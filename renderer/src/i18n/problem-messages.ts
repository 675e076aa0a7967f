import type { FieldProblem } from '../../../common/field-problems.js';
import { currentLanguage, i18n } from './i18n-instance.js';

/** A value of a problem as a message shows it: lists joined, anything else as text. */
function shown(value: unknown): string {
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/**
 * The catalog key and values of a problem: most codes are their own key with their parameters;
 * a few choose among wordings by what they carry.
 */
function messageOf(
  problem: FieldProblem,
  labelOf: (code: string) => string,
): { key: string; values: Record<string, unknown> } {
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(problem)) if (name !== 'code') values[name] = shown(value);
  switch (problem.code) {
    case 'taken':
      if (problem.type === undefined) {
        if (problem.locale === undefined) return { key: 'taken', values };
        return { key: 'taken_in_locale', values: { language: labelOf(problem.locale) } };
      }
      return {
        key: problem.suggestion === undefined ? 'taken_by_type' : 'taken_by_type_suggestion',
        values: { ...values, title: problem.title ?? problem.type },
      };
    case 'reserved':
      return { key: problem.name === undefined ? 'reserved' : 'reserved_name', values };
    case 'not_a_target_slug': {
      if (problem.slugs.length === 0) return { key: 'not_a_target_slug_none', values };
      const slugs = new Intl.ListFormat(currentLanguage(), { type: 'disjunction' }).format(problem.slugs);
      return { key: 'not_a_target_slug', values: { ...values, slugs } };
    }
    case 'ambiguous_filter':
      return { key: 'ambiguous_filter', values: { ...values, first: JSON.stringify(problem.value[0]) } };
    case 'no_such_row':
      return { key: 'no_such_row', values: { ...values, id: JSON.stringify(problem.id) } };
    case 'read_only':
      return { key: 'read_only', values: { ...values, value: JSON.stringify(problem.value) } };
    case 'too_many':
      return { key: 'too_many_items', values };
    case 'option_in_use':
      return {
        key: problem.options.length === 1 ? 'option_in_use_one_option' : 'option_in_use_options',
        values: { ...values, count: problem.count },
      };
    case 'holds_rows':
      return { key: 'holds_rows', values: { ...values, count: problem.count } };
    case 'media_in_use':
      return { key: 'media_in_use', values: { ...values, count: problem.count } };
    case 'fallback_loop':
      return { key: 'fallback_loop', values: { locales: problem.locales.join(' -> ') } };
    case 'locale_in_use':
      return { key: 'locale_in_use', values: { ...values, count: problem.count } };
    default:
      return { key: problem.code, values };
  }
}

/**
 * A problem the server found with a field, as the end of a sentence that starts with the field's
 * name (`is required`), in the editor's language; undefined for a code this editor does not know
 * (a newer server's), so the caller shows the server's own sentence. A locale the problem names
 * is shown by `labelOf` (the site's name for it, where the caller has the site's locales), else by
 * its code.
 */
export function problemMessage(
  problem: FieldProblem,
  labelOf: (code: string) => string = (code) => code,
): string | undefined {
  if (typeof problem?.code !== 'string') return undefined;
  const { key, values } = messageOf(problem, labelOf);
  const path = `problems:field.${key}`;
  // A plural message has no key of its own, only its forms.
  if (!i18n.exists(path) && !i18n.exists(`${path}_other`)) return undefined;
  return String(i18n.t(path as 'problems:field.required', values));
}
