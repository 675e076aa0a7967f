/** The number syntax the API accepts (`42`, `-3.5`, `.5`, `1e3`); spaces around it are ignored. */
const NUMBER_SYNTAX = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/** What a number's text means: nothing, a finite number, or not a number (bad syntax, or too large). */
export type ParsedNumber =
  | { kind: 'empty' }
  | { kind: 'number'; value: number }
  | { kind: 'invalid'; text: string; reason: 'syntax' | 'not_finite' };

/** Reads a number's text the way the server stores it and the editor's number input shows it. */
export function parseNumberText(text: string): ParsedNumber {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'empty' };
  if (!NUMBER_SYNTAX.test(trimmed)) return { kind: 'invalid', text: trimmed, reason: 'syntax' };
  const value = Number(trimmed);
  return Number.isFinite(value) ? { kind: 'number', value } : { kind: 'invalid', text: trimmed, reason: 'not_finite' };
}
