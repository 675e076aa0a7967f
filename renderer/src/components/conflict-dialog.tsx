import { useMemo, useState } from 'react';
import type { LastChange } from '../../../common/api-contract.js';
import { type ConflictChoice, type ConflictField, defaultChoice, META_FIELD } from '../fields/conflict-merge.js';
import { formatTimestamp, timeAgo } from '../fields/datetime-value.js';
import { summarize } from '../fields/field-values.js';
import { useT } from '../i18n/use-t.js';
import { IconAlert } from './icons.js';
import { ModalDialog } from './modal-dialog.js';

/** Props of the dialog a save meets when someone else saved the row since it was opened. */
export interface ConflictDialogProps {
  /** The fields either person changed since this person opened the row. */
  fields: readonly ConflictField[];
  /** Who saved (or deleted) it last, and when; null when not recorded. */
  lastChange: LastChange | null;
  /** The row is gone: only keeping this person's version aside is offered. */
  deleted: boolean;
  /** This person's version as JSON, to copy or download. */
  mineJson: string;
  /** The download's file name. */
  fileName: string;
  onResolve(choices: Record<string, ConflictChoice>): void;
  onCancel(): void;
}

/**
 * What the other person changed beside what this person changed, field by field, each with "keep
 * theirs" or "keep mine", and this person's whole version to copy or download first: nothing is
 * lost whichever is chosen. Resolving saves the chosen fields over the version stored now.
 */
export function ConflictDialog({
  fields,
  lastChange,
  deleted,
  mineJson,
  fileName,
  onResolve,
  onCancel,
}: ConflictDialogProps) {
  const t = useT('conflicts');
  const [choices, setChoices] = useState<Record<string, ConflictChoice>>(() =>
    Object.fromEntries(fields.map((field) => [field.name, defaultChoice(field)])),
  );
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const download = useMemo(() => `data:application/json;charset=utf-8,${encodeURIComponent(mineJson)}`, [mineJson]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(mineJson);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  const who = lastChange?.by ?? null;
  const when = lastChange ? timeAgo(lastChange.at) : '';
  const intro = deleted
    ? who
      ? t('deletedBy', { name: who, when })
      : t('deletedBySomeone')
    : who
      ? t('changedBy', { name: who, when })
      : t('changedBySomeone');
  const shown = (value: unknown, name: string) => {
    const text =
      name === META_FIELD
        ? Object.values(value as Record<string, string>)
            .filter((part) => part !== '')
            .join(' · ')
        : summarize(value);
    return text === '' ? <span className="conflict-empty">{t('empty')}</span> : text;
  };
  return (
    <ModalDialog
      title={deleted ? t('deletedTitle') : t('title')}
      icon={<IconAlert />}
      onDismiss={onCancel}
      initialFocus="[data-autofocus]"
      actions={
        <>
          <button type="button" className="button" onClick={() => void copy()}>
            {t('copyMine')}
          </button>
          <a className="button" href={download} download={fileName}>
            {t('downloadMine')}
          </a>
          <button type="button" className="button" onClick={onCancel}>
            {deleted ? t('common:actions.close') : t('common:actions.cancel')}
          </button>
          {!deleted && (
            <button type="button" className="button button-primary" data-autofocus onClick={() => onResolve(choices)}>
              {t('saveChoices')}
            </button>
          )}
        </>
      }
    >
      <p title={lastChange ? formatTimestamp(lastChange.at) : undefined}>{intro}</p>
      {!deleted && <p>{t('explain')}</p>}
      {copied && (
        <p className="conflict-copied" role="status">
          {copied === 'yes' ? t('copied') : t('copyFailed')}
        </p>
      )}
      {!deleted && (
        <table className="conflict-table">
          <thead>
            <tr>
              <th scope="col">{t('field')}</th>
              <th scope="col">{t('theirs')}</th>
              <th scope="col">{t('mine')}</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((field) => {
              const label = field.label ?? t('seo');
              const choice = choices[field.name];
              const choose = (value: ConflictChoice) => setChoices((current) => ({ ...current, [field.name]: value }));
              return (
                <tr key={field.name} data-field={field.name}>
                  <th scope="row">{label}</th>
                  <td className={choice === 'theirs' ? 'conflict-kept' : undefined}>
                    <div className="conflict-value">
                      {shown(field.theirs, field.name)}
                      {!field.theyChanged && <span className="conflict-note">{t('unchanged')}</span>}
                    </div>
                    <label className="conflict-choice">
                      <input
                        type="radio"
                        name={`conflict-${field.name}`}
                        checked={choice === 'theirs'}
                        onChange={() => choose('theirs')}
                      />
                      {t('keepTheirs', { field: label })}
                    </label>
                  </td>
                  <td className={choice === 'mine' ? 'conflict-kept' : undefined}>
                    <div className="conflict-value">
                      {shown(field.mine, field.name)}
                      {!field.iChanged && <span className="conflict-note">{t('unchanged')}</span>}
                    </div>
                    <label className="conflict-choice">
                      <input
                        type="radio"
                        name={`conflict-${field.name}`}
                        checked={choice === 'mine'}
                        onChange={() => choose('mine')}
                      />
                      {t('keepMine', { field: label })}
                    </label>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </ModalDialog>
  );
}
