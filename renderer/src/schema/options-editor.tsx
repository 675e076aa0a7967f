import { IconClose, IconPlus } from '../components/icons.js';
import { IconButton } from '../components/ui/icon-button.js';
import { useT } from '../i18n/use-t.js';
import { addOption, changeOptionId, changeOptionText, type OptionDraft } from './type-draft.js';

/**
 * The choices of a select field: the text people see and the id the API stores (made from the
 * text until edited by hand), one row each.
 */
export function OptionsEditor({
  idPrefix,
  options,
  error,
  onChange,
}: {
  idPrefix: string;
  options: readonly OptionDraft[];
  error: string | undefined;
  onChange(options: OptionDraft[]): void;
}) {
  const t = useT('schema');
  const errorId = `${idPrefix}-options-error`;
  return (
    <div className="options-editor">
      <div className="options-head" aria-hidden="true">
        <span>{t('options.text')}</span>
        <span>{t('options.storedAs')}</span>
      </div>
      <ul className="options-list" aria-describedby={error ? errorId : undefined}>
        {options.map((option, index) => (
          <li key={option.key} className="option-row">
            <input
              className="input input-small"
              value={option.text}
              onChange={(event) => onChange(changeOptionText(options, option.key, event.target.value))}
              aria-label={t('options.textLabel', { number: index + 1 })}
              placeholder={index === 0 ? t('options.textPlaceholder') : ''}
              autoComplete="off"
            />
            <input
              className="input input-small input-mono"
              value={option.id}
              onChange={(event) => onChange(changeOptionId(options, option.key, event.target.value))}
              aria-label={t('options.idLabel', { number: index + 1 })}
              placeholder={index === 0 ? t('options.idPlaceholder') : ''}
              autoComplete="off"
              spellCheck={false}
            />
            <IconButton
              label={t('options.removeLabel', { number: index + 1 })}
              title={t('options.remove')}
              onClick={() => onChange(options.filter((other) => other.key !== option.key))}
              disabled={options.length === 1}
            >
              <IconClose />
            </IconButton>
          </li>
        ))}
      </ul>
      {error && (
        <p id={errorId} className="field-error">
          {t('options.title')} {error}
        </p>
      )}
      <button
        type="button"
        className="button button-ghost button-small options-add"
        onClick={() => onChange(addOption(options))}
      >
        <IconPlus />
        {t('options.add')}
      </button>
    </div>
  );
}
