/**
 * What can be wrong with one field of a request, as data: a code and its parameters. The server
 * sends them in `error.problems` (and the same as sentences in `error.fields`); a whole-request
 * limit comes as `error.detail` (`{"code":"too_large","limit":10485760}`). Clients read codes and
 * parameters and never parse the sentences; `describeProblem` makes the one wording both use.
 */
export type FieldProblem =
  // Values of row fields
  | { code: 'required' }
  | { code: 'required_slug'; source: string }
  | { code: 'repeated' }
  | { code: 'not_text' }
  | { code: 'not_a_number' }
  | { code: 'not_finite' }
  | { code: 'not_a_datetime' }
  | { code: 'not_a_date' }
  | { code: 'not_a_boolean' }
  | { code: 'not_an_option'; options: string[] }
  | { code: 'too_long'; max: number }
  | { code: 'nul_character' }
  | { code: 'not_a_list' }
  | { code: 'tag_too_long'; max: number }
  | { code: 'too_many'; max: number; of: string }
  | { code: 'no_letters' }
  // A content type's slug or table another type holds names that type and a free slug to take; a
  // localized slug another row holds names the locale it holds it in.
  | { code: 'taken'; type?: string; title?: string; suggestion?: string; locale?: string }
  | { code: 'not_a_media_path' }
  | { code: 'not_a_row_reference' }
  | { code: 'no_such_row'; table: string; id: string }
  | { code: 'target_type_gone'; type: string }
  | { code: 'not_a_field'; table: string }
  | { code: 'same_field'; field: string }
  | { code: 'not_a_meta_member' }
  | { code: 'not_meta' }
  | { code: 'meta_cleared' }
  | { code: 'not_a_row_id' }
  | { code: 'in_trash'; table: string }
  // A list's `filter` parameter (common/filter-syntax.ts)
  | { code: 'not_a_filter' }
  | { code: 'no_filter_values' }
  | { code: 'ambiguous_filter'; operator: string; value: string }
  | { code: 'not_comparable' }
  | { code: 'not_a_relation' }
  | { code: 'not_a_target_slug'; table: string; slugs: string[] }
  // A build hook's address
  | { code: 'not_a_hook_url' }
  | { code: 'too_large'; limit: number }
  // A write whose database connection ended while it committed (503 database_unavailable)
  | { code: 'outcome_unknown' }
  // A request target not in normal form (a fragment, a backslash, dot segments, encoded separators...)
  | { code: 'target_not_normal' }
  // Password sign-in turned off (`--no-password-sign-in`): people sign in through the identity provider
  | { code: 'password_sign_in_off' }
  // Content types and their column descriptors
  | { code: 'not_an_identifier' }
  | { code: 'reserved'; name?: string }
  | { code: 'not_a_preview_path' }
  | { code: 'not_a_label'; max: number }
  | { code: 'not_a_column_list' }
  | { code: 'not_an_object' }
  | { code: 'unknown_members'; members: string[] }
  | { code: 'unknown_column_type' }
  | { code: 'listed_twice'; column: string }
  | { code: 'no_options' }
  | { code: 'bad_option' }
  | { code: 'repeated_option'; id: string }
  | { code: 'no_parent' }
  | { code: 'unknown_parent'; parent: string }
  | { code: 'parent_is_slug' }
  | { code: 'no_target' }
  | { code: 'no_such_type'; type: string }
  | { code: 'not_changeable' }
  | { code: 'read_only'; value: unknown }
  | { code: 'renames_unknown'; from: string; table: string }
  | { code: 'taken_over'; column: string }
  | { code: 'type_change'; from: string; to: string }
  | { code: 'name_in_use'; column: string }
  | { code: 'option_in_use'; count: number; options: string[] }
  // A column's condition (`when`, common/field-conditions.ts)
  | { code: 'not_a_condition' }
  | { code: 'condition_unknown_field'; field: string }
  | { code: 'condition_cycle'; columns: string[] }
  | { code: 'condition_value'; field: string; value: string }
  | { code: 'condition_empty_only'; field: string }
  // A `blocks` column's block types and values (common/block-rules.ts)
  | { code: 'no_block_types' }
  | { code: 'too_deep'; max: number }
  | { code: 'not_a_block_list' }
  | { code: 'not_a_block_type'; types: string[] }
  | { code: 'not_a_block_id' }
  | { code: 'repeated_block_id'; id: string }
  // A starter set that would replace starter types still holding rows (POST /api/starters)
  | { code: 'holds_rows'; title: string; count: number }
  | { code: 'pointed_at'; columns: string[] }
  // A media asset's focal point (PATCH /api/media/:id), and a delete refused while rows use the asset
  | { code: 'out_of_range'; min: number; max: number }
  | { code: 'media_in_use'; count: number; rows: string[] }
  // The site's languages (PUT /api/locales, common/locale-rules.ts)
  | { code: 'not_a_locale_code' }
  | { code: 'locale_listed_twice'; locale: string }
  | { code: 'falls_back_to_itself' }
  | { code: 'default_falls_back' }
  | { code: 'fallback_loop'; locales: string[] }
  | { code: 'locale_in_use'; locales: string[]; count: number }
  // Localized content: a `locale` the site does not list, `localized` on a column type that stays shared
  | { code: 'unknown_locale'; locales: string[] }
  | { code: 'not_localizable'; type: string };

/** Every problem code. */
export type ProblemCode = FieldProblem['code'];

const plural = (count: number, one: string, many = `${one}s`) => (count === 1 ? one : many);

/** The problem as the end of a sentence that starts with the field's name (`title is required`). */
export function describeProblem(problem: FieldProblem): string {
  switch (problem.code) {
    case 'required':
      return 'is required';
    case 'required_slug':
      return `is required; give one or a ${problem.source} with letters or digits`;
    case 'repeated':
      return 'was sent more than once';
    case 'not_text':
      return 'must be a string';
    case 'not_a_number':
      return 'must be a number, like 42 or 3.5';
    case 'not_finite':
      return 'must be a finite number';
    case 'not_a_datetime':
      return 'must be a real date and time in the format YYYY-MM-DD HH:MM:SS';
    case 'not_a_date':
      return 'must be a real date in the format YYYY-MM-DD';
    case 'not_a_boolean':
      return 'must be true or false';
    case 'not_an_option':
      return `must be one of ${problem.options.join(', ')}`;
    case 'too_long':
      return `must be at most ${problem.max} characters`;
    case 'nul_character':
      return 'must not contain NUL characters';
    case 'not_a_list':
      return 'must be a list of strings';
    case 'tag_too_long':
      return `each tag must be at most ${problem.max} characters`;
    case 'too_many':
      return `must have at most ${problem.max} ${problem.of}`;
    case 'no_letters':
      return 'must contain letters or digits';
    case 'taken':
      if (problem.type === undefined)
        return `is already taken${problem.locale === undefined ? '' : ` in ${problem.locale}`}`;
      return `is taken by the content type ${problem.title ?? problem.type} (${problem.type})${problem.suggestion === undefined ? '' : `; ${problem.suggestion} is free`}`;
    case 'not_a_media_path':
      return 'must be the path of an uploaded file, as POST /api/uploads returns it';
    case 'not_a_row_reference':
      return 'must be the id of a row';
    case 'no_such_row':
      return `must be the id of a ${problem.table} row; there is none with id ${JSON.stringify(problem.id)}`;
    case 'target_type_gone':
      return `points at the content type ${problem.type}, which no longer exists`;
    case 'not_a_field':
      return `is not a field of ${problem.table}`;
    case 'same_field':
      return `names the same field as ${problem.field}; send only one of them`;
    case 'not_a_meta_member':
      return 'is not a meta member (use title, description, keywords)';
    case 'not_meta':
      return 'must be an object with title, description and keywords, or null';
    case 'meta_cleared':
      return 'cannot be set while meta is cleared';
    case 'not_a_hook_url':
      return 'must be an http:// or https:// address, without a user name or password';
    case 'not_a_filter':
      return 'must have the form field=value, field!=value, field<value, field<=value, field>value, field>=value, field:in=a|b, field:empty, field:notempty, relation.slug=value or search=keyword';
    case 'no_filter_values':
      return 'must list one or more non-empty values after :in=, separated by | (a | or \\ inside a value is written \\| or \\\\)';
    case 'ambiguous_filter':
      return `is followed by ${problem.operator} and a value beginning with ${JSON.stringify(problem.value[0])}, which reads as another operator; to compare with a value that begins so, write \\ before it: ${problem.operator}\\${problem.value}`;
    case 'not_comparable':
      return 'has no order, so it cannot be filtered with <, <=, > or >=';
    case 'not_a_relation':
      return 'is not a relation, so it has no target fields to filter by';
    case 'not_a_target_slug':
      return problem.slugs.length === 0
        ? `points at ${problem.table}, which has no slug to filter by`
        : `can be filtered by the ${problem.table} slug ${problem.slugs.join(' or ')} only`;
    case 'in_trash':
      return `is held by a deleted ${problem.table} row in the trash; restore that row, or choose another id`;
    case 'not_a_row_id':
      return 'must be 1 to 128 letters, digits or . _ ~ - characters, and not trash';
    case 'too_large':
      return `must be at most ${problem.limit} bytes`;
    case 'outcome_unknown':
      return 'may or may not have been saved';
    case 'target_not_normal':
      return 'is not in normal form';
    case 'password_sign_in_off':
      return 'is turned off on this server';
    case 'not_an_identifier':
      return 'must be 1 to 63 lower-case letters, digits or _, starting with a letter';
    case 'reserved':
      return problem.name === undefined
        ? 'is reserved for Quire itself; pick another name'
        : `${problem.name} is reserved; pick another name`;
    case 'not_a_preview_path':
      return 'must be an http(s) URL or a path starting with /, such as http://localhost:4321/news/{slug}';
    case 'not_a_label':
      return `must be a non-empty string of at most ${problem.max} characters`;
    case 'not_a_column_list':
      return 'must be a non-empty array of column descriptors';
    case 'not_an_object':
      return 'must be an object';
    case 'unknown_members':
      return `has unknown properties ${problem.members.join(', ')}`;
    case 'unknown_column_type':
      return 'must be a known column type';
    case 'listed_twice':
      return `column ${problem.column} is listed twice`;
    case 'no_options':
      return 'a select needs at least one option';
    case 'bad_option':
      return 'each option needs a non-empty string id (at most 200 characters, no NUL character) and a string text, and nothing else';
    case 'repeated_option':
      return `option id ${problem.id} is repeated`;
    case 'no_parent':
      return 'a slug needs a parent column';
    case 'unknown_parent':
      return `parent ${problem.parent} is not a column of this type`;
    case 'parent_is_slug':
      return 'a slug cannot be derived from another slug';
    case 'no_target':
      return 'a relation needs a target content type';
    case 'no_such_type':
      return `there is no content type ${problem.type}`;
    case 'not_changeable':
      return 'is not something a content type has or can change';
    case 'read_only':
      return `is set by the server and cannot be changed (it is ${JSON.stringify(problem.value)})`;
    case 'renames_unknown':
      return `renames ${problem.from}, which is not a column of ${problem.table}`;
    case 'taken_over':
      return `takes over ${problem.column}, which another column already does`;
    case 'type_change':
      return `cannot change type from ${problem.from} to ${problem.to}; add a new column instead`;
    case 'name_in_use':
      return `cannot take the name of the existing column ${problem.column} in the same change`;
    case 'option_in_use':
      return `has ${problem.count} ${plural(problem.count, 'row')} using the removed ${plural(problem.options.length, 'option')} ${problem.options.join(', ')}`;
    case 'not_a_condition':
      return 'must be an object with field and one of is or isNot (a list of 1 to 100 different values), empty: true or notEmpty: true';
    case 'condition_unknown_field':
      return `names ${problem.field}, which is not a column of this type`;
    case 'condition_cycle':
      return `depends on itself through ${problem.columns.join(', ')}`;
    case 'condition_value':
      return `compares ${problem.field} with ${problem.value}, which is not a value ${problem.field} can hold`;
    case 'condition_empty_only':
      return `can test ${problem.field} only with empty or notEmpty`;
    case 'no_block_types':
      return 'a blocks column needs at least one block type';
    case 'too_deep':
      return `must not nest blocks more than ${problem.max} levels deep`;
    case 'not_a_block_list':
      return 'must be a list of blocks, each an object with a type';
    case 'not_a_block_type':
      return `must name a block type of this column: ${problem.types.join(', ')}`;
    case 'not_a_block_id':
      return 'must be 1 to 64 letters, digits, _ or - characters';
    case 'repeated_block_id':
      return `is ${problem.id}, which another block of this value has`;
    case 'holds_rows':
      return `still holds ${problem.count} ${plural(problem.count, 'row')}`;
    case 'pointed_at':
      return `is still the target of ${problem.columns.join(', ')}`;
    case 'out_of_range':
      return `must be from ${problem.min} to ${problem.max}`;
    case 'media_in_use':
      return `is used by ${problem.count} ${plural(problem.count, 'row')}${problem.rows.length > 0 ? `: ${problem.rows.join(', ')}` : ''}`;
    case 'not_a_locale_code':
      return 'must be a BCP 47 language tag, such as en, de or de-AT';
    case 'locale_listed_twice':
      return `lists ${problem.locale} more than once`;
    case 'falls_back_to_itself':
      return 'must not name the locale itself';
    case 'default_falls_back':
      return 'must be empty for the default locale';
    case 'fallback_loop':
      return `makes a loop: ${problem.locales.join(' -> ')}`;
    case 'locale_in_use':
      return `still has ${problem.count} ${plural(problem.count, 'value')} in ${problem.locales.join(', ')}`;
    case 'unknown_locale':
      return `must be one of the site's locales: ${problem.locales.join(', ')}`;
    case 'not_localizable':
      return `cannot be translatable: a ${problem.type} column is shared by every locale`;
  }
}

/** Problems by field name, in a map with no prototype (a field named `constructor` is a field like any other). */
export type FieldProblems = Record<string, FieldProblem>;

/** A fresh, prototype-free collection of field problems. */
export function noProblems(): FieldProblems {
  return Object.create(null) as FieldProblems;
}

/** Whether a collection of field problems holds any. */
export function hasProblems(problems: FieldProblems): boolean {
  for (const _ in problems) return true;
  return false;
}
