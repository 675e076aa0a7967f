import { describe, expect, it } from 'vitest';
import { suggestedLabel } from './languages-page.js';

describe('the label a new language is offered', () => {
  it('is the language’s name in itself, capitalised as a label', () => {
    expect(suggestedLabel('de')).toBe('Deutsch');
    expect(suggestedLabel('de-at')).toBe('Österreichisches Deutsch');
    expect(suggestedLabel('fr')).toBe('Français');
    expect(suggestedLabel('es')).toBe('Español');
  });

  it('is empty for what is not a language tag, so nothing wrong is offered', () => {
    expect(suggestedLabel('')).toBe('');
    expect(suggestedLabel('not a code')).toBe('');
    expect(suggestedLabel('de_AT')).toBe('');
  });
});
