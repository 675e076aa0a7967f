/**
 * The English catalogs opening the editor needs, bundled with it: the shell and sidebar (`common`,
 * `app`, `components`), and the lists and the row editor, whose code is in the opening chunk too
 * (`fields`, `pages-list`, `pages-row`). `en.ts` leaves out the same list.
 */
const opening: Record<string, unknown> = import.meta.glob(
  './en/{app,common,components,fields,pages-list,pages-row}.json',
  { eager: true, import: 'default' },
);
export default opening;
