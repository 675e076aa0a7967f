import { MAX_LONG_TEXT_LENGTH, textLikeField } from './field-text.js';

/** `markdown`: a body in Markdown, stored as written; rendering is the site's business. */
export const markdownField = textLikeField('markdown', MAX_LONG_TEXT_LENGTH, { contentMediaType: 'text/markdown' });
