import { describe, expect, it } from 'vitest';
import { convertsValues, typeChangeAllowed } from './column-type-changes.js';

describe('column type changes', () => {
  it('lets text types switch, and markdown and richtext convert', () => {
    expect(typeChangeAllowed('text', 'markdown')).toBe(true);
    expect(typeChangeAllowed('markdown', 'richtext')).toBe(true);
    expect(typeChangeAllowed('richtext', 'markdown')).toBe(true);
    expect(convertsValues('markdown', 'richtext')).toBe(true);
    expect(convertsValues('text', 'markdown')).toBe(false);
  });

  it('refuses the rest', () => {
    expect(typeChangeAllowed('text', 'richtext')).toBe(false);
    expect(typeChangeAllowed('richtext', 'textarea')).toBe(false);
    expect(typeChangeAllowed('number', 'text')).toBe(false);
    expect(typeChangeAllowed('image', 'image')).toBe(true);
  });
});
