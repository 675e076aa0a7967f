import { useId } from 'react';
import { Select } from '../components/ui/select.js';
import { useT } from '../i18n/use-t.js';
import { isTheme, THEMES } from './themes.js';
import { useTheme } from './use-theme.js';

/** Chooses the editor's theme (the system's, light or dark); the choice is remembered on this machine. */
export function ThemePicker({ className }: { className?: string }) {
  const t = useT('common');
  const id = useId();
  const { theme, chooseTheme } = useTheme();
  return (
    <div className={className ? `theme-picker ${className}` : 'theme-picker'}>
      <label htmlFor={id} className="theme-picker-label">
        {t('theme.label')}
      </label>
      <Select
        id={id}
        size="small"
        value={theme}
        options={THEMES.map((choice) => ({ value: choice, label: t(`theme.${choice}`) }))}
        onChange={(choice) => {
          if (isTheme(choice)) chooseTheme(choice);
        }}
      />
    </div>
  );
}
