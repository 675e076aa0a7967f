import { describe, expect, it } from 'vitest';
import { findLiterals } from './literal-scanner.js';

const texts = (source: string) => findLiterals('example.tsx', source).map((finding) => finding.text);

describe('finding text written in components', () => {
  it('finds JSX text and literals in user-visible props', () => {
    const found = texts(`
      export const A = () => (
        <div title="Hello" className="box" aria-label={'Close'}>
          Save changes
          <input placeholder={\`Search \${name}\`} />
          <img alt="" src="/a.svg" />
        </div>
      );
    `);
    expect(found).toEqual(['"Hello"', "'Close'", 'Save changes', '`Search \u0024{name}`']);
  });

  it('finds literals in value position of children, calls that show them and label members', () => {
    const found = texts(`
      export function B({ n }) {
        notify('success', n > 1 ? 'Saved all' : 'Saved');
        useDocumentTitle(name, 'Trash');
        const options = [{ value: 'draft', label: 'Draft' }];
        return <p>{n === 'one' ? 'One row' : null}{label ?? 'Untitled'}{format(n, 'short')}</p>;
      }
    `);
    expect(found).toEqual(["'Saved all'", "'Saved'", "'Trash'", "'Draft'", "'One row'", "'Untitled'"]);
  });

  it('leaves keys, code, symbols and exempt lines alone', () => {
    const found = texts(`
      export function C({ t }) {
        return (
          <p className="note" data-kind="info" title={t('note.title')}>
            {t('note.body', { count: 2 })} · — {'→'}
            {/* i18n-exempt: the product's name */}
            <span>Quire</span>
            <code>{'curl -H "Accept: application/json"'}</code> {/* i18n-exempt */}
          </p>
        );
      }
    `);
    expect(found).toEqual([]);
  });
});
