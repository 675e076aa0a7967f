import type { ContentType } from '../content/content-type.js';

/**
 * Suffixes of the shapes made for each content type: its row (no suffix), its list and single-row
 * responses, its JSON and form write bodies, and its create and delete responses; and, for a type
 * with localized columns, the same read and JSON write shapes with every locale at once
 * (`?locale=all`). Every type's name is kept clear of all of them, so a type turning localization
 * on or off never renames another.
 */
export const SHAPE_SUFFIXES = [
  '',
  'List',
  'Item',
  'Input',
  'Update',
  'Form',
  'UpdateForm',
  'Created',
  'Deleted',
  'AllLocales',
  'AllLocalesList',
  'AllLocalesItem',
  'AllLocalesInput',
  'AllLocalesUpdate',
] as const;

/** The shape names of one content type, from its row name. */
export function shapeNames(name: string) {
  return {
    row: name,
    list: `${name}List`,
    item: `${name}Item`,
    input: `${name}Input`,
    update: `${name}Update`,
    form: `${name}Form`,
    updateForm: `${name}UpdateForm`,
    created: `${name}Created`,
    deleted: `${name}Deleted`,
  } satisfies Record<string, `${string}${(typeof SHAPE_SUFFIXES)[number]}`>;
}

/** The shape names of one content type with localized columns read or written in every locale at once. */
export function allLocalesShapeNames(name: string) {
  return {
    row: `${name}AllLocales`,
    list: `${name}AllLocalesList`,
    item: `${name}AllLocalesItem`,
    input: `${name}AllLocalesInput`,
    update: `${name}AllLocalesUpdate`,
  } satisfies Record<string, `${string}${(typeof SHAPE_SUFFIXES)[number]}`>;
}

/** Words whose singular is the word itself. */
const UNCHANGED = new Set(['news', 'series', 'species', 'media', 'data', 'info', 'information', 'metadata', 'status']);

/** A plain English singular, good enough for type names (`categories` -> `category`, `news` stays). */
export function singular(word: string): string {
  const lower = word.toLowerCase();
  if (UNCHANGED.has(lower) || lower.length < 3) return word;
  if (lower.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(?:ss|sh|ch|x|z)es$/.test(lower)) return word.slice(0, -2);
  if (lower.endsWith('s') && !/(?:ss|us|is)$/.test(lower)) return word.slice(0, -1);
  return word;
}

/** `menu_items` -> `MenuItem`: PascalCase, the last word made singular. */
function pascalName(table: string, makeSingular: boolean): string {
  const words = table.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  if (makeSingular && words.length > 0) words[words.length - 1] = singular(words[words.length - 1]);
  const name = words.map((word) => word[0].toUpperCase() + word.slice(1)).join('');
  return /^[A-Za-z]/.test(name) ? name : `Type${name}`;
}

/**
 * Global names of TypeScript's standard library: a generated `interface Record` would shadow the
 * global one inside the declarations (which use `Record<string, ...>`) and in any file importing it.
 */
const TYPESCRIPT_GLOBALS = [
  'Array',
  'ArrayBuffer',
  'Awaited',
  'BigInt',
  'Boolean',
  'Date',
  'Error',
  'Exclude',
  'Extract',
  'Function',
  'InstanceType',
  'Iterable',
  'JSON',
  'Map',
  'Math',
  'NonNullable',
  'Number',
  'Object',
  'Omit',
  'Parameters',
  'Partial',
  'Pick',
  'Promise',
  'PromiseLike',
  'Readonly',
  'ReadonlyArray',
  'Record',
  'RegExp',
  'Required',
  'ReturnType',
  'Set',
  'String',
  'Symbol',
  'WeakMap',
  'WeakSet',
];

/**
 * One name per content type for its row shape (`News`, `Article`, `MenuItem`), stable for a set of
 * types: the singular of the table name, or the table name itself where two singulars would clash,
 * or a number after it where even that clashes or the name (or one with a shape's suffix) is
 * `reserved` (the shared shapes) or a global of TypeScript's. Related shapes add a suffix
 * (`ArticleList`, `ArticleInput`).
 */
export function typeNames(types: readonly ContentType[], reserved: Iterable<string>): Map<string, string> {
  const taken = new Set<string>([...reserved, ...TYPESCRIPT_GLOBALS]);
  const names = new Map<string, string>();
  const sorted = [...types].sort((a, b) => a.table.localeCompare(b.table));
  const singulars = new Map<string, number>();
  for (const type of sorted) {
    const name = pascalName(type.table, true);
    singulars.set(name, (singulars.get(name) ?? 0) + 1);
  }
  for (const type of sorted) {
    let name = pascalName(type.table, true);
    if ((singulars.get(name) ?? 0) > 1) name = pascalName(type.table, false);
    let unique = name;
    const clashes = (candidate: string) => SHAPE_SUFFIXES.some((suffix) => taken.has(candidate + suffix));
    for (let n = 2; clashes(unique); n++) unique = `${name}${n}`;
    for (const suffix of SHAPE_SUFFIXES) taken.add(unique + suffix);
    names.set(type.table, unique);
  }
  return names;
}
