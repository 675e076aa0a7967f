import type { Kysely } from 'kysely';
import { type FieldProblems, hasProblems, noProblems } from '../../common/field-problems.js';
import { tableFromSlug } from '../../common/naming-rules.js';
import {
  STARTER_SETS,
  type StarterSetName,
  type StarterSetSummary,
  type StartersResponse,
} from '../../common/starter-contract.js';
import type { DatabaseEngine } from '../db/engine.js';
import { ContentRepository } from '../db/repositories/content-repository.js';
import { RevisionRepository } from '../db/repositories/revision-repository.js';
import { SettingsRepository } from '../db/repositories/settings-repository.js';
import type { QuireDatabase } from '../db/schema.js';
import { AppError, validationError } from '../errors/app-error.js';
import type { ContentType } from './content-type.js';
import { bodyObject, refuseUnknownMembers } from './content-type-input.js';
import type { ContentTypeRegistry } from './content-type-registry.js';
import {
  claimRegistry,
  insertContentType,
  refuseTakenNames,
  relationsPointingAt,
  removeContentType,
} from './content-type-service.js';
import type { ContentWrites } from './content-writes.js';
import type { RowService } from './row-service.js';
import { STARTER_SET_DEFINITIONS, type StarterSetDefinition } from './starter-sets.js';

/** The setting that records the first run's choice. */
const CHOICE_SETTING = 'starter_set';

/** Every row of a table. */
const ALL_ROWS = { equals: [] };

/**
 * The first run's starter sets: what the site's starter types are (those Quire made, not by hand),
 * whether the editor should greet the site with the choice, and applying a choice (keep them, start
 * empty, or a blog's or a docs site's types instead) in one transaction that records it.
 */
export class StarterService {
  private readonly db: Kysely<QuireDatabase>;
  private readonly writes: ContentWrites;
  private readonly registry: ContentTypeRegistry;
  private readonly rows: RowService;
  private readonly engine: DatabaseEngine;

  constructor(options: {
    db: Kysely<QuireDatabase>;
    writes: ContentWrites;
    registry: ContentTypeRegistry;
    rows: RowService;
    engine: DatabaseEngine;
  }) {
    this.db = options.db;
    this.writes = options.writes;
    this.registry = options.registry;
    this.rows = options.rows;
    this.engine = options.engine;
  }

  /** `GET /api/starters`. */
  async state(): Promise<StartersResponse> {
    const changing = this.writes.settled();
    if (changing) await changing;
    await this.registry.follow();
    const types = this.registry.list();
    const starters = [];
    for (const type of starterTypesOf(types)) {
      const { total } = await this.rows.list(type, {
        selection: ALL_ROWS,
        page: { limit: 1, offset: 0, order: 'id', desc: false },
      });
      starters.push({ slug: type.slug, title: type.title, table: type.table, rows: total });
    }
    const choice = await new SettingsRepository(this.db).get(CHOICE_SETTING);
    // Untouched: no content type was ever made, changed or removed (the change log is empty).
    const untouched = async () =>
      (await new RevisionRepository(this.db).listTypeChanges(null, { limit: 1, offset: 0 })).total === 0;
    const offer =
      choice === undefined &&
      types.length > 0 &&
      starters.length === types.length &&
      starters.every((starter) => starter.rows === 0) &&
      (await untouched());
    return {
      choice: (choice?.value as StarterSetName | undefined) ?? null,
      chosen_by: choice?.changed_by ?? null,
      chosen_at: choice?.changed_at ?? null,
      offer,
      starters,
      sets: STARTER_SET_DEFINITIONS.map((set) => summaryOf(set, types)),
    };
  }

  /**
   * `POST /api/starters` `{"set": ...}`: keeps the starter types, or removes them (refused with a
   * 409 naming each that holds rows, or that a type made by hand points at) and makes the set's
   * types in their place, all in one transaction that also records the choice as `by`'s.
   */
  choose(rawBody: unknown, by: string | null): Promise<StartersResponse> {
    return this.writes
      .changeSchema(async () => {
        await this.registry.follow();
        const body = bodyObject(rawBody);
        refuseUnknownMembers(body, ['set']);
        const definition = STARTER_SET_DEFINITIONS.find((candidate) => candidate.set === body.set);
        if (!definition) throw validationError({ set: { code: 'not_an_option', options: [...STARTER_SETS] } });
        await this.writes.run({ schema: true }, async (trx) => {
          if (definition.types !== null) await this.replaceStarters(trx, definition, by);
          await new SettingsRepository(trx).set(CHOICE_SETTING, definition.set, by);
        });
        if (definition.types !== null) await this.registry.reloadAfterCommit();
      })
      .then(() => this.state());
  }

  /** Removes the starter types (each empty, none pointed at by hand-made types) and makes the set's. */
  private async replaceStarters(
    trx: Kysely<QuireDatabase>,
    definition: StarterSetDefinition,
    by: string | null,
  ): Promise<void> {
    await claimRegistry(trx, this.registry);
    const types = this.registry.list();
    const starters = starterTypesOf(types);
    const problems = noProblems();
    const content = new ContentRepository({ db: trx, engine: this.engine });
    for (const type of starters) {
      const count = await content.count(type.table, ALL_ROWS);
      if (count > 0) problems[type.slug] = { code: 'holds_rows', title: type.title, count };
    }
    const kept = types.filter((type) => type.custom);
    for (const type of starters) {
      const pointing = relationsPointingAt([...kept, type], [type.slug]);
      if (pointing.length > 0 && !problems[type.slug]) problems[type.slug] = { code: 'pointed_at', columns: pointing };
    }
    if (hasProblems(problems)) throw refusal(problems, definition);
    for (const type of starters) await removeContentType(trx, this.engine, type, by);
    for (const type of definition.types ?? []) {
      await refuseTakenNames(trx, this.engine, kept, type.slug, tableFromSlug(type.slug));
      const made = {
        slug: type.slug,
        table: tableFromSlug(type.slug),
        title: type.title,
        columns: type.columns,
        previewPath: null,
        custom: false,
        flatMeta: type.flatMeta,
      };
      await insertContentType(trx, this.engine, made, by);
    }
  }
}

/** The types Quire made (starters), not made by hand, in sidebar order. */
function starterTypesOf(types: readonly ContentType[]): ContentType[] {
  return types.filter((type) => !type.custom);
}

/** A set as the first screen offers it: `keep` holds the starter types there are now. */
function summaryOf(set: StarterSetDefinition, types: readonly ContentType[]): StarterSetSummary {
  const made = set.types ?? starterTypesOf(types);
  return {
    set: set.set,
    title: set.title,
    description: set.description,
    types: made.map((type) => ({ slug: type.slug, title: type.title })),
  };
}

/** The 409 of a set that cannot replace the starter types, naming each that stands in the way. */
function refusal(problems: FieldProblems, definition: StarterSetDefinition): AppError {
  const holding = Object.entries(problems).map(([slug, problem]) =>
    problem.code === 'holds_rows'
      ? `${problem.title} (${slug}) holds ${problem.count} row${problem.count === 1 ? '' : 's'}`
      : `${slug} is the target of ${problem.code === 'pointed_at' ? problem.columns.join(', ') : 'a relation'}`,
  );
  return new AppError(
    'conflict',
    `The starter types cannot be removed (${definition.title}): ${holding.join('; ')}. Nothing was changed; delete those rows first, or keep the starter types`,
    problems,
  );
}
