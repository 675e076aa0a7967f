import { parseNumberText } from '../../../common/number-syntax.js';

/**
 * The write-body value of a number input: null when empty, a JSON number when it reads as one.
 * Text that is not a number is sent as it is, so the server's message appears at the field.
 */
export function numberToBody(text: string): number | string | null {
  const parsed = parseNumberText(text);
  if (parsed.kind === 'empty') return null;
  return parsed.kind === 'number' ? parsed.value : parsed.text;
}

/** The input text of a stored number (`3.5`; null and anything else as empty). */
export function numberToText(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' ? value : '';
}

/** The text after ArrowUp/ArrowDown: one up or down from the current number (or from 0). */
export function stepNumberText(text: string, direction: 1 | -1): string {
  const parsed = parseNumberText(text);
  if (parsed.kind === 'invalid') return text;
  const current = parsed.kind === 'number' ? parsed.value : 0;
  // Keep the decimals the user typed (0.1 + 1 shows 1.1, not 1.1000000000000001).
  const decimals = /\.(\d+)$/.exec(String(current))?.[1].length ?? 0;
  return (current + direction).toFixed(Math.min(decimals, 10)).replace(/^-0$/, '0');
}
