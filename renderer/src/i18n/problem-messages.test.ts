import { afterEach, describe, expect, it } from 'vitest';
import { describeProblem, type FieldProblem, type ProblemCode } from '../../../common/field-problems.js';
import { ApiError, describeError } from '../api/api-error.js';
import { applyLanguage, i18n } from './i18n-instance.js';
import { LANGUAGE_STORAGE_KEY, LANGUAGES, type Language } from './languages.js';
import { problemMessage } from './problem-messages.js';

/** Each code the server sends, with the parameters it carries (each wording a code can take). */
const SAMPLES: Record<ProblemCode, FieldProblem[]> = {
  required: [{ code: 'required' }],
  required_slug: [{ code: 'required_slug', source: 'title' }],
  repeated: [{ code: 'repeated' }],
  not_text: [{ code: 'not_text' }],
  not_a_number: [{ code: 'not_a_number' }],
  not_finite: [{ code: 'not_finite' }],
  not_a_datetime: [{ code: 'not_a_datetime' }],
  not_a_date: [{ code: 'not_a_date' }],
  not_a_boolean: [{ code: 'not_a_boolean' }],
  not_an_option: [{ code: 'not_an_option', options: ['en', 'de', 'fr', 'es'] }],
  too_long: [{ code: 'too_long', max: 200 }],
  nul_character: [{ code: 'nul_character' }],
  not_a_list: [{ code: 'not_a_list' }],
  tag_too_long: [{ code: 'tag_too_long', max: 50 }],
  too_many: [{ code: 'too_many', max: 20, of: 'tags' }],
  no_letters: [{ code: 'no_letters' }],
  taken: [
    { code: 'taken' },
    { code: 'taken', type: 'news', title: 'News' },
    { code: 'taken', type: 'news', suggestion: 'news-2' },
    { code: 'taken', locale: 'de' },
  ],
  not_a_media_path: [{ code: 'not_a_media_path' }],
  not_a_row_reference: [{ code: 'not_a_row_reference' }],
  no_such_row: [{ code: 'no_such_row', table: 'news', id: 'x1' }],
  target_type_gone: [{ code: 'target_type_gone', type: 'authors' }],
  not_a_field: [{ code: 'not_a_field', table: 'news' }],
  same_field: [{ code: 'same_field', field: 'meta.title' }],
  not_a_meta_member: [{ code: 'not_a_meta_member' }],
  not_meta: [{ code: 'not_meta' }],
  meta_cleared: [{ code: 'meta_cleared' }],
  not_a_row_id: [{ code: 'not_a_row_id' }],
  in_trash: [{ code: 'in_trash', table: 'news' }],
  not_a_filter: [{ code: 'not_a_filter' }],
  no_filter_values: [{ code: 'no_filter_values' }],
  ambiguous_filter: [{ code: 'ambiguous_filter', operator: '>', value: '=5' }],
  not_comparable: [{ code: 'not_comparable' }],
  not_a_relation: [{ code: 'not_a_relation' }],
  not_a_target_slug: [
    { code: 'not_a_target_slug', table: 'authors', slugs: [] },
    { code: 'not_a_target_slug', table: 'authors', slugs: ['slug', 'handle'] },
  ],
  not_a_hook_url: [{ code: 'not_a_hook_url' }],
  too_large: [{ code: 'too_large', limit: 10485760 }],
  outcome_unknown: [{ code: 'outcome_unknown' }],
  target_not_normal: [{ code: 'target_not_normal' }],
  password_sign_in_off: [{ code: 'password_sign_in_off' }],
  not_an_identifier: [{ code: 'not_an_identifier' }],
  reserved: [{ code: 'reserved' }, { code: 'reserved', name: 'id' }],
  not_a_preview_path: [{ code: 'not_a_preview_path' }],
  not_a_label: [{ code: 'not_a_label', max: 200 }],
  not_a_column_list: [{ code: 'not_a_column_list' }],
  not_an_object: [{ code: 'not_an_object' }],
  unknown_members: [{ code: 'unknown_members', members: ['colour', 'size'] }],
  unknown_column_type: [{ code: 'unknown_column_type' }],
  listed_twice: [{ code: 'listed_twice', column: 'title' }],
  no_options: [{ code: 'no_options' }],
  bad_option: [{ code: 'bad_option' }],
  repeated_option: [{ code: 'repeated_option', id: 'red' }],
  no_parent: [{ code: 'no_parent' }],
  unknown_parent: [{ code: 'unknown_parent', parent: 'name' }],
  parent_is_slug: [{ code: 'parent_is_slug' }],
  no_target: [{ code: 'no_target' }],
  no_such_type: [{ code: 'no_such_type', type: 'events' }],
  not_changeable: [{ code: 'not_changeable' }],
  read_only: [{ code: 'read_only', value: 'news' }],
  renames_unknown: [{ code: 'renames_unknown', from: 'subtitle', table: 'news' }],
  taken_over: [{ code: 'taken_over', column: 'summary' }],
  type_change: [{ code: 'type_change', from: 'text', to: 'number' }],
  name_in_use: [{ code: 'name_in_use', column: 'title' }],
  option_in_use: [
    { code: 'option_in_use', count: 1, options: ['red'] },
    { code: 'option_in_use', count: 3, options: ['red', 'blue'] },
  ],
  holds_rows: [
    { code: 'holds_rows', title: 'News', count: 1 },
    { code: 'holds_rows', title: 'News', count: 12 },
  ],
  pointed_at: [{ code: 'pointed_at', columns: ['articles.author'] }],
  not_a_condition: [{ code: 'not_a_condition' }],
  condition_unknown_field: [{ code: 'condition_unknown_field', field: 'kind' }],
  condition_cycle: [{ code: 'condition_cycle', columns: ['video_url', 'kind'] }],
  condition_value: [{ code: 'condition_value', field: 'kind', value: '"movie"' }],
  condition_empty_only: [{ code: 'condition_empty_only', field: 'body' }],
  no_block_types: [{ code: 'no_block_types' }],
  too_deep: [{ code: 'too_deep', max: 3 }],
  not_a_block_list: [{ code: 'not_a_block_list' }],
  not_a_block_type: [{ code: 'not_a_block_type', types: ['hero', 'text'] }],
  not_a_block_id: [{ code: 'not_a_block_id' }],
  repeated_block_id: [{ code: 'repeated_block_id', id: 'b1' }],
  out_of_range: [{ code: 'out_of_range', min: 0, max: 1 }],
  media_in_use: [
    { code: 'media_in_use', count: 1, rows: ['news/1'] },
    { code: 'media_in_use', count: 3, rows: ['news/1', 'articles/2'] },
  ],
  not_a_locale_code: [{ code: 'not_a_locale_code' }],
  locale_listed_twice: [{ code: 'locale_listed_twice', locale: 'de-AT' }],
  falls_back_to_itself: [{ code: 'falls_back_to_itself' }],
  default_falls_back: [{ code: 'default_falls_back' }],
  fallback_loop: [{ code: 'fallback_loop', locales: ['de', 'de-AT', 'de'] }],
  locale_in_use: [
    { code: 'locale_in_use', count: 1, locales: ['de'] },
    { code: 'locale_in_use', count: 4, locales: ['de', 'fr'] },
  ],
  unknown_locale: [{ code: 'unknown_locale', locales: ['en', 'de'] }],
  not_localizable: [{ code: 'not_localizable', type: 'number' }],
};

const ALL = Object.values(SAMPLES).flat();

afterEach(async () => {
  window.localStorage.removeItem(LANGUAGE_STORAGE_KEY);
  await i18n.changeLanguage('en');
});

describe('problems the server finds, in the editor’s language', () => {
  it('says every problem in English as the server does', () => {
    for (const problem of ALL) expect(problemMessage(problem), problem.code).toBe(describeProblem(problem));
  });

  it('has every problem in every language, with its values in place', async () => {
    for (const language of LANGUAGES.filter((code) => code !== 'en')) {
      await applyLanguage(language);
      for (const problem of ALL) {
        const message = problemMessage(problem);
        expect(message, `${language}: ${problem.code}`).toBeDefined();
        expect(message, `${language}: ${problem.code}`).not.toBe(describeProblem(problem));
        expect(message, `${language}: ${problem.code}`).not.toMatch(/\{\{|problems:/);
      }
    }
    expect(problemMessage({ code: 'holds_rows', title: 'News', count: 12 })).toBe('todavía contiene 12 entradas');
  });

  it('leaves a code it does not know to the server’s sentence', async () => {
    const unknown = { code: 'from_a_newer_server' } as unknown as FieldProblem;
    expect(problemMessage(unknown)).toBeUndefined();
    await applyLanguage('de');
    const error = new ApiError(
      400,
      'validation_failed',
      'Invalid input: …',
      { title: 'is what a newer server says', slug: 'is required' },
      [],
      {
        title: unknown,
        slug: { code: 'required' },
      },
    );
    expect(error.fields).toEqual({ title: 'is what a newer server says', slug: 'ist erforderlich' });
    expect(describeError(error)).toBe('Invalid input: …');
  });

  it('names the locale a slug is taken in by the site’s label where the caller has it, else by its code', async () => {
    const taken = ApiError.fromBody(409, {
      error: {
        status: 409,
        code: 'conflict',
        message: 'slug is already taken in de',
        fields: { slug: 'is already taken in de' },
        problems: { slug: { code: 'taken', locale: 'de' } },
      },
    });
    const labelOf = (code: string) => (code === 'de' ? 'Deutsch' : code);
    expect(taken.fieldsIn(labelOf)).toEqual({ slug: 'is already taken in Deutsch' });
    expect(taken.fields).toEqual({ slug: 'is already taken in de' });
    const expected: [Language, string][] = [
      ['de', 'ist in Deutsch bereits vergeben'],
      ['fr', 'est déjà pris en Deutsch'],
      ['es', 'ya está en uso en Deutsch'],
    ];
    for (const [language, message] of expected) {
      await applyLanguage(language);
      expect(problemMessage({ code: 'taken', locale: 'de' }, labelOf), language).toBe(message);
    }
    expect(problemMessage({ code: 'taken' }, labelOf)).toBe('ya está en uso');
  });

  it('describes API errors by code in the editor’s language', async () => {
    const invalid = ApiError.fromBody(400, {
      error: {
        status: 400,
        code: 'validation_failed',
        message: 'Invalid input: language must be one of en, de, fr, es',
        fields: { language: 'must be one of en, de, fr, es' },
        problems: { language: { code: 'not_an_option', options: ['en', 'de', 'fr', 'es'] } },
      },
    });
    const broken = new ApiError(500, 'internal_error', 'The disk is full');
    expect(describeError(invalid)).toBe('Invalid input: language must be one of en, de, fr, es');
    expect(describeError(broken)).toBe('The disk is full');
    expect(describeError(ApiError.fromBody(502, '<html>'))).toBe('The server answered 502 without an explanation.');
    await applyLanguage('fr');
    expect(describeError(invalid)).toBe(
      'Saisie non valide\u00a0: language doit être l’une de ces valeurs\u00a0: en, de, fr, es',
    );
    expect(invalid.fields.language).toBe('doit être l’une de ces valeurs\u00a0: en, de, fr, es');
    expect(describeError(broken)).toMatch(/^Une erreur s’est produite sur le serveur/);
    expect(describeError(ApiError.fromBody(502, '<html>'))).toBe('Le serveur a répondu 502 sans explication.');
  });
});
