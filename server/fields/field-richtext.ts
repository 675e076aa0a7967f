import { MAX_LONG_TEXT_LENGTH, textLikeField } from './field-text.js';

/** `richtext`: a body in HTML, as a WYSIWYG editor writes it. */
export const richtextField = textLikeField('richtext', MAX_LONG_TEXT_LENGTH, { contentMediaType: 'text/html' });
