/**
 * The little of `@joplin/turndown-plugin-gfm` the rich-text conversion uses (the package ships no
 * types): its GitHub Flavored Markdown plugin (tables, strikethrough, task lists).
 */
declare module '@joplin/turndown-plugin-gfm' {
  import type TurndownService from 'turndown';

  export const gfm: TurndownService.Plugin;
}
