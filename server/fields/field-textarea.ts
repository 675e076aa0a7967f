import { MAX_TEXT_LENGTH, textLikeField } from './field-text.js';

/** `textarea`: plain multi-line text. */
export const textareaField = textLikeField('textarea', MAX_TEXT_LENGTH);
