/**
 * The first run's starter sets (`/api/starters`): which content types a new site starts with. A new
 * database holds the default starters (News, Categories, Articles, Menu items); an admin keeps them,
 * starts empty, or takes another set, once. Pure types and names, shared by server and editor.
 */

/** The choices: keep the starter types, remove them, or replace them with a blog's or a docs site's. */
export const STARTER_SETS = ['keep', 'empty', 'blog', 'docs'] as const;

/** One of STARTER_SETS. */
export type StarterSetName = (typeof STARTER_SETS)[number];

/** A content type a set holds (or the site holds now), by slug and title. */
export interface StarterTypeName {
  slug: string;
  title: string;
}

/** A set as the first screen offers it. */
export interface StarterSetSummary {
  set: StarterSetName;
  /** A short name for the choice (“Start empty”). */
  title: string;
  /** One sentence saying what the site gets. */
  description: string;
  /** The content types the site holds after this choice. */
  types: StarterTypeName[];
}

/** `GET /api/starters` and the answer of `POST /api/starters`. */
export interface StartersResponse {
  /** The set chosen (recorded once one was), or null. */
  choice: StarterSetName | null;
  /** Who chose it and when (null while none was chosen). */
  chosen_by: string | null;
  chosen_at: string | null;
  /**
   * Whether the editor greets the site with the choice: none made yet, every content type a
   * starter as Quire made it (none made, changed or removed by anyone since), and no rows in any.
   */
  offer: boolean;
  /** The starter types the site holds now (made by Quire, not by hand), with their row counts. */
  starters: (StarterTypeName & { table: string; rows: number })[];
  sets: StarterSetSummary[];
}

/** `POST /api/starters`. */
export interface StarterChoiceRequest {
  set: StarterSetName;
}
