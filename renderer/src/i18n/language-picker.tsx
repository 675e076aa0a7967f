import { useId } from 'react';
import { chooseLanguage, currentLanguage } from './i18n-instance.js';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from './languages.js';
import { useT } from './use-t.js';

/** Chooses the editor's language; the choice is remembered on this machine. */
export function LanguagePicker({ className }: { className?: string }) {
  const t = useT('common');
  const id = useId();
  return (
    <div className={className ? `language-picker ${className}` : 'language-picker'}>
      <label htmlFor={id} className="language-picker-label">
        {t('language.label')}
      </label>
      <select
        id={id}
        className="select select-small"
        value={currentLanguage()}
        onChange={(event) => {
          if (isLanguage(event.target.value)) void chooseLanguage(event.target.value);
        }}
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </div>
  );
}
