import type { Kysely } from 'kysely';

const REVISIONS_TABLE = 'quire_revisions';

/**
 * Why each revision was written: `edit` (a person's write), `schedule` (a scheduled change firing),
 * `restore` (a revision or the trash put back) or `import` (rows brought in by `quire import`).
 * Revisions written before read as edits. A restore also keeps when the revision it put back was
 * written, so its history can say which version came back even once that revision is purged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable(REVISIONS_TABLE)
    .addColumn('origin', 'text', (column) => column.notNull().defaultTo('edit'))
    .execute();
  await db.schema.alterTable(REVISIONS_TABLE).addColumn('restored_from', 'text').execute();
}
