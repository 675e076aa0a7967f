import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import { FieldFrame } from '../components/field-frame.js';
import { applyEdit, countWords, formatMarkdown } from './markdown-format.js';
import { renderMarkdown } from './markdown-render.js';

const html = (source: string) => {
  const holder = document.createElement('div');
  holder.append(renderMarkdown(source));
  return holder.innerHTML;
};

describe('the markdown preview', () => {
  it('renders Markdown', () => {
    expect(html('## Regatta\n\nBoats **leave** at *seven*.\n\n- a\n- b')).toBe(
      '<h2>Regatta</h2>\n<p>Boats <strong>leave</strong> at <em>seven</em>.</p>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n',
    );
  });

  it('shows raw HTML as text instead of injecting it', () => {
    const source = 'Hello <img src=x onerror=alert(1)> <script>alert(2)</script>\n\n<div onclick="x()">block</div>';
    const holder = document.createElement('div');
    holder.append(renderMarkdown(source));
    expect(holder.querySelectorAll('img, script, div, [onerror], [onclick]')).toHaveLength(0);
    const out = holder.innerHTML;
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(out).toContain('&lt;div onclick="x()"&gt;block&lt;/div&gt;');
  });

  it('drops script links and opens links in a new tab', () => {
    const out = html('[click](javascript:alert(1)) and [site](https://example.org)');
    expect(out).not.toContain('javascript:');
    expect(out).toContain('<a href="https://example.org" target="_blank" rel="noopener noreferrer">site</a>');
  });

  it('loads images only from this server and names the others instead', () => {
    const out = html('![Boat](/media/2025/03/boat.png) ![Tracker](https://tracker.example/p.gif)');
    expect(out).toContain('<img src="/media/2025/03/boat.png" alt="Boat">');
    expect(out).not.toContain('tracker.example/p.gif"');
    expect(out).toContain('Image not shown in the preview: Tracker');
  });
});

describe('markdown formatting', () => {
  const apply = (text: string, start: number, end: number, format: Parameters<typeof formatMarkdown>[3]) => {
    const edit = formatMarkdown(text, start, end, format);
    const next = applyEdit(text, edit);
    return { next, selected: next.slice(edit.selectFrom, edit.selectTo) };
  };

  it('wraps the selection, or inserts a selected placeholder', () => {
    expect(apply('make this bold', 5, 9, 'bold')).toEqual({ next: 'make **this** bold', selected: 'this' });
    expect(apply('x', 1, 1, 'italic')).toEqual({ next: 'x_italic text_', selected: 'italic text' });
    expect(apply('see docs', 4, 8, 'link')).toEqual({ next: 'see [docs](https://)', selected: 'https://' });
    expect(apply('a\nb', 0, 3, 'code')).toEqual({ next: '```\na\nb\n```', selected: 'a\nb' });
  });

  it('prefixes whole lines, replacing another prefix', () => {
    expect(apply('one\ntwo\nthree', 1, 6, 'bullets').next).toBe('- one\n- two\nthree');
    expect(apply('- one\n- two', 0, 11, 'numbers').next).toBe('1. one\n2. two');
    expect(apply('intro\nTitle', 8, 8, 'heading').next).toBe('intro\n## Title');
  });

  it('counts words', () => {
    expect(countWords('## Hello, harbour —  world!\n\n- 42')).toBe(4);
    expect(countWords('   ')).toBe(0);
  });
});

function Body({ initial }: { initial: string }) {
  const [value, setValue] = useState<unknown>(initial);
  const column: ColumnDescriptor = { name: 'body', label: 'Body', type: 'markdown', required: false };
  return <FieldFrame column={column} value={value} onChange={setValue} error={undefined} />;
}

describe('the markdown field', () => {
  it('is labelled by the column label, formats with the toolbar, and shows the preview on demand', async () => {
    const user = userEvent.setup();
    render(<Body initial="Harbour" />);
    const text = screen.getByLabelText('Body') as HTMLTextAreaElement;
    text.setSelectionRange(0, 7);
    await user.click(screen.getByRole('button', { name: 'Bold' }));
    expect(text.value).toBe('**Harbour**');
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    const preview = await screen.findByRole('region', { name: 'Body preview' });
    await waitFor(() => expect(preview.querySelector('strong')?.textContent).toBe('Harbour'));
    expect(screen.getByRole('button', { name: 'Preview' }).getAttribute('aria-pressed')).toBe('true');
  });
});
