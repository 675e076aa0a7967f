import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type ComparedField, RevisionValue } from './revision-values.js';

const body: ComparedField = {
  name: 'body',
  label: 'Body',
  column: { name: 'body', label: 'Body', type: 'richtext', required: false },
  old: '<h2>Opening</h2><p>The <strong>old</strong> harbour</p>',
  current: '<h2>Opening</h2><p>The <em>new</em> harbour</p>',
};

describe('RevisionValue of a richtext column', () => {
  it('compares the text, not the tags', () => {
    const old = render(<RevisionValue field={body} side="old" />).container;
    expect(old.textContent).toBe('Opening\nThe old harbour');
    expect([...old.querySelectorAll('del')].map((removed) => removed.textContent)).toEqual(['old']);
    expect(old.querySelector('strong')).toBeNull();
    const current = render(<RevisionValue field={body} side="new" />).container;
    expect([...current.querySelectorAll('ins')].map((added) => added.textContent)).toEqual(['new']);
  });
});
