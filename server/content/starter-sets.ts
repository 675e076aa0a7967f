import type { ColumnDescriptor } from '../../common/api-contract.js';
import type { StarterSetName } from '../../common/starter-contract.js';
import { STARTER_TYPES } from '../db/migrations/002-starter-types.js';
import { ARTICLE_AND_MENU_TYPES } from '../db/migrations/004-article-and-menu-types.js';

/** A content type a starter set makes, in the order it is made (relation targets first). */
export interface StarterTypeDefinition {
  slug: string;
  title: string;
  columns: ColumnDescriptor[];
  /** Rows also carry flat meta_title/meta_description/meta_keywords (the spec's article-like type). */
  flatMeta: boolean;
}

/** A set the first screen offers, with what it makes (nothing for `keep` and `empty`). */
export interface StarterSetDefinition {
  set: StarterSetName;
  title: string;
  description: string;
  /** The types made in place of the starters; null: the starters stay (`keep`). */
  types: StarterTypeDefinition[] | null;
}

const TITLE: ColumnDescriptor = { name: 'title', label: 'Title', type: 'text', required: true };
const SLUG: ColumnDescriptor = { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' };
const POSITION: ColumnDescriptor = { name: 'position', label: 'Position', type: 'number', required: false };
const BODY: ColumnDescriptor = { name: 'body', label: 'Body', type: 'markdown', required: false };
const DRAFT_OR_PUBLISHED: ColumnDescriptor = {
  name: 'status',
  label: 'Status',
  type: 'select',
  required: true,
  options: [
    { id: 'draft', text: 'Draft' },
    { id: 'published', text: 'Published' },
  ],
};

/** The types a new database starts with (migrations 002 and 004), as `keep` keeps them. */
export const DEFAULT_STARTERS: readonly StarterTypeDefinition[] = [
  ...STARTER_TYPES.map(({ slug, title, columns }) => ({ slug, title, columns, flatMeta: false })),
  ...ARTICLE_AND_MENU_TYPES,
];

const BLOG: StarterTypeDefinition[] = [
  {
    slug: 'authors',
    title: 'Authors',
    flatMeta: false,
    columns: [
      { name: 'name', label: 'Name', type: 'text', required: true },
      { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'name' },
      { name: 'bio', label: 'Bio', type: 'textarea', required: false },
      { name: 'photo', label: 'Photo', type: 'image', required: false },
    ],
  },
  {
    slug: 'posts',
    title: 'Posts',
    flatMeta: false,
    columns: [
      TITLE,
      SLUG,
      DRAFT_OR_PUBLISHED,
      { name: 'published_at', label: 'Published at', type: 'datetime', required: true },
      { name: 'excerpt', label: 'Excerpt', type: 'textarea', required: false },
      BODY,
      { name: 'cover', label: 'Cover image', type: 'image', required: false },
      { name: 'tags', label: 'Tags', type: 'tags', required: false },
      { name: 'author', label: 'Author', type: 'relation', required: false, target: 'authors' },
    ],
  },
];

const DOCS: StarterTypeDefinition[] = [
  {
    slug: 'sections',
    title: 'Sections',
    flatMeta: false,
    columns: [TITLE, SLUG, POSITION, { name: 'summary', label: 'Summary', type: 'textarea', required: false }],
  },
  {
    slug: 'pages',
    title: 'Pages',
    flatMeta: false,
    columns: [
      TITLE,
      SLUG,
      DRAFT_OR_PUBLISHED,
      { name: 'section', label: 'Section', type: 'relation', required: false, target: 'sections' },
      POSITION,
      { name: 'summary', label: 'Summary', type: 'textarea', required: false },
      BODY,
    ],
  },
];

/** Every set, in the order the first screen offers them. */
export const STARTER_SET_DEFINITIONS: readonly StarterSetDefinition[] = [
  {
    set: 'keep',
    title: 'Keep the starter types',
    description: 'A news site’s types, ready to fill: articles and news items in categories, and a menu.',
    types: null,
  },
  {
    set: 'empty',
    title: 'Start empty',
    description: 'No content types at all: you shape your own, field by field.',
    types: [],
  },
  {
    set: 'blog',
    title: 'Start a blog',
    description: 'Posts with a Markdown body, a cover image, tags and an author, and the authors who write them.',
    types: BLOG,
  },
  {
    set: 'docs',
    title: 'Start a documentation site',
    description: 'Pages with a Markdown body, ordered within sections.',
    types: DOCS,
  },
];
