/**
 * Markdown to safe DOM for the markdown field's preview. Loaded on demand (marked and DOMPurify are
 * a separate chunk). Raw HTML in the source is shown as text, never injected; DOMPurify then
 * removes anything executable that Markdown itself could produce (`javascript:` links and the like).
 * Only images on this server (`/media/...`) are loaded: the editor works offline and never fetches
 * from other origins, which its Content-Security-Policy would refuse anyway.
 */
import createDOMPurify from 'dompurify';
import { Marked } from 'marked';
import { i18n } from '../i18n/i18n-instance.js';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const markdown = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html: ({ text }) => escapeHtml(text),
  },
});

/** Whether an image source is on this server (a root-relative path, not `//host/...`). */
const isSameOrigin = (src: string) => src.startsWith('/') && !src.startsWith('//');

const purify = createDOMPurify(window);
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    // A click in the preview must not navigate the editor away from unsaved work.
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
  if (node.tagName === 'IMG' && !isSameOrigin(node.getAttribute('src') ?? '')) {
    node.setAttribute('data-external-src', node.getAttribute('src') ?? '');
    node.removeAttribute('src');
    node.removeAttribute('srcset');
  }
});

/** The sanitized preview of a Markdown text, as nodes ready to insert. */
export function renderMarkdown(source: string): DocumentFragment {
  const html = markdown.parse(source) as string;
  const fragment = purify.sanitize(html, {
    RETURN_DOM_FRAGMENT: true,
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe'],
    FORBID_ATTR: ['style', 'class', 'id'],
    ALLOW_DATA_ATTR: false,
    ADD_ATTR: ['target'],
  });
  // External images become a note saying what is not shown (the image itself is never fetched).
  for (const image of fragment.querySelectorAll('img[data-external-src]')) {
    const note = document.createElement('span');
    note.className = 'markdown-external-image';
    note.textContent = i18n.t('fields:markdown.externalImage', {
      image: image.getAttribute('alt') || image.getAttribute('data-external-src'),
    });
    image.replaceWith(note);
  }
  return fragment;
}
