/**
 * What an asset's description may hold (`PATCH /api/media/:id`), checked alike by the server and
 * the editor: texts of bounded length, a focal point inside the image, a folder name. Pure: no
 * Node, DOM or package imports.
 */
import type { FocalPoint, MediaAssetPatch } from './asset-contract.js';
import type { FieldProblem, FieldProblems } from './field-problems.js';

/** Longest alt text, caption, credit and folder name, in characters. */
export const ASSET_TEXT_LIMITS = { alt: 1000, caption: 2000, credit: 500, folder: 200 } as const;

/** Where an asset's focal point is until someone moves it: the middle. */
export const DEFAULT_FOCAL: FocalPoint = { x: 0.5, y: 0.5 };

const MEMBERS = ['alt', 'caption', 'credit', 'focal', 'folder'] as const;

/** A patch read from a request body, or the problems with it by member. */
export type ParsedAssetPatch = { patch: MediaAssetPatch; problems: null } | { patch: null; problems: FieldProblems };

/** Reads `PATCH /api/media/:id`'s body: every member checked, unknown ones refused. */
export function parseAssetPatch(body: unknown): ParsedAssetPatch {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { patch: null, problems: { body: { code: 'not_an_object' } } };
  }
  const fields = body as Record<string, unknown>;
  const problems: Record<string, FieldProblem> = {};
  const patch: MediaAssetPatch = {};
  const unknown = Object.keys(fields).filter((name) => !(MEMBERS as readonly string[]).includes(name));
  if (unknown.length > 0) problems.body = { code: 'unknown_members', members: unknown };
  for (const name of ['alt', 'caption', 'credit'] as const) {
    if (fields[name] === undefined) continue;
    const problem = textProblem(fields[name], ASSET_TEXT_LIMITS[name]);
    if (problem) problems[name] = problem;
    else patch[name] = (fields[name] as string).trim();
  }
  if (fields.folder !== undefined) {
    const folder = fields.folder;
    const problem = folder === null ? null : textProblem(folder, ASSET_TEXT_LIMITS.folder);
    if (problem) problems.folder = problem;
    else patch.folder = folder === null || (folder as string).trim() === '' ? null : (folder as string).trim();
  }
  if (fields.focal !== undefined) {
    const focal = parseFocal(fields.focal);
    if ('problem' in focal) problems[focal.at] = focal.problem;
    else patch.focal = focal.point;
  }
  return Object.keys(problems).length > 0 ? { patch: null, problems } : { patch, problems: null };
}

function textProblem(value: unknown, max: number): FieldProblem | null {
  if (typeof value !== 'string') return { code: 'not_text' };
  if (value.includes('\u0000')) return { code: 'nul_character' };
  if ([...value].length > max) return { code: 'too_long', max };
  return null;
}

function parseFocal(value: unknown): { point: FocalPoint } | { at: string; problem: FieldProblem } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { at: 'focal', problem: { code: 'not_an_object' } };
  }
  const point = value as Record<string, unknown>;
  const unknown = Object.keys(point).filter((name) => name !== 'x' && name !== 'y');
  if (unknown.length > 0) return { at: 'focal', problem: { code: 'unknown_members', members: unknown } };
  for (const axis of ['x', 'y'] as const) {
    const coordinate = point[axis];
    if (typeof coordinate !== 'number') return { at: `focal.${axis}`, problem: { code: 'not_a_number' } };
    if (!Number.isFinite(coordinate)) return { at: `focal.${axis}`, problem: { code: 'not_finite' } };
    if (coordinate < 0 || coordinate > 1)
      return { at: `focal.${axis}`, problem: { code: 'out_of_range', min: 0, max: 1 } };
  }
  return { point: { x: point.x as number, y: point.y as number } };
}
