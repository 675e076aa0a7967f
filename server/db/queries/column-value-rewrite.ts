import { type Kysely, sql } from 'kysely';

/**
 * Rewrites every non-null text value of one content column through `rewrite`, in the caller's
 * transaction (a column type change that converts its content); a value that comes back the same
 * is not written. Answers how many rows changed.
 */
export async function rewriteColumnValues(
  db: Kysely<unknown>,
  table: string,
  column: string,
  rewrite: (value: string) => string | null,
): Promise<number> {
  const rows = db as Kysely<Record<string, Record<string, unknown>>>;
  const found = await rows
    .selectFrom(table)
    .select([sql<string>`id`.as('id'), sql<unknown>`${sql.ref(column)}`.as('value')])
    .where(sql.ref(column), 'is not', null)
    .execute();
  let changed = 0;
  for (const { id, value } of found) {
    const next = rewrite(String(value));
    if (next === value) continue;
    await rows
      .updateTable(table)
      .set({ [column]: next })
      .where(sql.ref('id'), '=', id)
      .execute();
    changed++;
  }
  return changed;
}
