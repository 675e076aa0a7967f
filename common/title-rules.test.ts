import { describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from './api-contract.js';
import { searchColumnsOf, slugColumnOf, titleColumnOf } from './title-rules.js';

const text = (name: string): ColumnDescriptor => ({ name, label: name, type: 'text', required: false });
const slug = (name: string, parent: string): ColumnDescriptor => ({
  name,
  label: name,
  type: 'slug',
  required: false,
  parent,
});

describe('the title rule', () => {
  it('takes the slug’s source column, whatever its name (an author’s name)', () => {
    const authors = [text('bio'), text('name'), slug('slug', 'name')];
    expect(titleColumnOf(authors)).toBe('name');
    expect(searchColumnsOf(authors)).toEqual(['name', 'slug']);
    expect(slugColumnOf(authors)).toBe('slug');
  });

  it('falls back to the first text column, and to none', () => {
    expect(titleColumnOf([{ ...text('count'), type: 'number' }, text('label'), text('url')])).toBe('label');
    expect(searchColumnsOf([text('label'), text('url')])).toEqual(['label']);
    expect(titleColumnOf([{ ...text('count'), type: 'number' }])).toBeNull();
    expect(searchColumnsOf([{ ...text('count'), type: 'number' }])).toEqual([]);
  });

  it('searches every slug column once, after the title', () => {
    const columns = [text('title'), slug('slug', 'title'), slug('short', 'title')];
    expect(searchColumnsOf(columns)).toEqual(['title', 'slug', 'short']);
  });
});
