import { useId } from 'react';
import { Select } from '../components/ui/select.js';
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
      <Select
        id={id}
        size="small"
        value={currentLanguage()}
        options={LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language], lang: language }))}
        onChange={(language) => {
          if (isLanguage(language)) void chooseLanguage(language);
        }}
      />
    </div>
  );
}
