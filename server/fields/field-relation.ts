import type { RelationValue } from '../../common/api-contract.js';
import type { FieldType } from './field.js';
import { ok, problem, singleString, storedText } from './field.js';

/**
 * `relation`: points at one row of the `target` content type. Written as the target row's id (or
 * a JSON object with an `id`), stored as that id, read as `{ id, title, slug }` or null. That the
 * target row exists is checked by the row service, which can see the database.
 */
export const relationField: FieldType = {
  type: 'relation',
  sqlType: 'text',
  filter: 'equals',
  orderable: true,
  parse(raw) {
    if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
      const id = (raw as Partial<RelationValue>).id;
      return typeof id === 'string' && id !== '' ? ok(id) : problem({ code: 'not_a_row_reference' });
    }
    return singleString(raw);
  },
  parseFilter: (raw) => ok(raw),
  rowPointers: (value, column) => {
    const id =
      typeof value === 'string' ? value : value && typeof value === 'object' && 'id' in value ? value.id : null;
    return typeof id === 'string' ? [{ target: column.target ?? '', id, at: '' }] : [];
  },
  toStored: (value) => value,
  // Rows are read with their relations resolved (see row-format); an id alone reads as a stub.
  serialize: (stored) => {
    const id = storedText(stored);
    return id === null ? null : { id: String(id), title: null, slug: null };
  },
  jsonSchema(column, use) {
    // Described to a credential that may not read the target type, the relation names no target
    // (see hiddenRelations): it reads as null, and a write may only leave it as it is.
    if (column.target === undefined) {
      const description =
        'Points at a content type this credential may not read: reads as null; sent empty it keeps its value';
      return use === 'form' ? { type: 'string', maxLength: 0, description } : { type: 'null', description };
    }
    const target = `a row of ${column.target}`;
    if (use === 'form') return { type: 'string', description: `The id of ${target}` };
    if (use === 'write') {
      const byObject = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] };
      return { anyOf: [{ type: 'string' }, byObject], description: `The id of ${target} (or an object with its id)` };
    }
    const orNull = { type: ['string', 'null'] };
    return {
      type: 'object',
      properties: { id: { type: 'string' }, title: orNull, slug: orNull },
      required: ['id', 'title', 'slug'],
      additionalProperties: false,
      description: `${target[0].toUpperCase()}${target.slice(1)}: its id, title and slug`,
    };
  },
  checkDescriptor(column) {
    return typeof column.target === 'string' && column.target !== '' ? null : { code: 'no_target' };
  },
};
