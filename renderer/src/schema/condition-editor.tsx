import { useState } from 'react';
import {
  CONDITION_OPERATORS,
  type ConditionOperator,
  type ConditionValue,
  conditionOperator,
  conditionValues,
  type FieldCondition,
  makeCondition,
} from '../../../common/field-conditions.js';
import { Select } from '../components/ui/select.js';
import { useT } from '../i18n/use-t.js';
import { LabeledControl } from './labeled-control.js';
import type { FieldDraft } from './type-draft.js';

/** Column types whose values a condition can list (the others are tested for emptiness only). */
const LISTED_TYPES: ReadonlySet<string> = new Set(['select', 'boolean', 'number', 'text', 'slug', 'tags', 'relation']);

/** Values typed as text, separated by commas: numbers for a number field. */
function typedValues(text: string, target: FieldDraft): ConditionValue[] {
  const parts = [...new Set(text.split(',').map((part) => part.trim()))].filter((part) => part !== '');
  if (target.type !== 'number') return parts;
  return parts.map(Number).filter((value) => Number.isFinite(value));
}

/** The condition a newly chosen field starts with. */
function startingCondition(target: FieldDraft): FieldCondition {
  if (!LISTED_TYPES.has(target.type)) return makeCondition(target.name, 'notEmpty', []);
  return makeCondition(target.name, 'is', target.type === 'boolean' ? [true] : []);
}

/**
 * When a field is shown (and required): always, or while another field is one of some values, none
 * of them, empty or filled in. `targets` are the fields it may depend on (not itself nor a field
 * shown on its own condition); the values are a select's options, yes or no, or typed text.
 */
export function ConditionEditor({
  idPrefix,
  when,
  targets,
  error,
  onChange,
}: {
  idPrefix: string;
  when: FieldCondition | undefined;
  targets: readonly FieldDraft[];
  error: string | undefined;
  onChange(when: FieldCondition | undefined): void;
}) {
  const t = useT('schema');
  const target = when ? targets.find((candidate) => candidate.name === when.field) : undefined;
  const operator = when ? conditionOperator(when) : 'is';
  const values = when ? conditionValues(when) : [];
  const [typed, setTyped] = useState(values.join(', '));
  const listed = target !== undefined && LISTED_TYPES.has(target.type);
  const operators = CONDITION_OPERATORS.filter((choice) => listed || choice === 'empty' || choice === 'notEmpty');
  const fieldChoices = [
    { value: '', label: t('condition.always') },
    ...targets
      .filter((other) => other.name !== '')
      .map((other) => ({
        value: other.name,
        label: t('condition.onlyWhen', { field: other.label.trim() || other.name }),
      })),
    // A condition on a field no longer offered (removed, or now depending on this one) stays visible until changed.
    ...(when && !target ? [{ value: when.field, label: t('condition.onlyWhen', { field: when.field }) }] : []),
  ];
  const setValues = (next: ConditionValue[]) => when && onChange(makeCondition(when.field, operator, next));
  return (
    <fieldset className="condition-editor" aria-label={t('condition.group')}>
      <LabeledControl id={`${idPrefix}-when`} label={t('condition.show')} error={error} className="field-inline">
        {(control) => (
          <Select
            {...control}
            size="small"
            value={when?.field ?? ''}
            options={fieldChoices}
            onChange={(name) => {
              const chosen = targets.find((candidate) => candidate.name === name);
              setTyped('');
              onChange(chosen ? startingCondition(chosen) : undefined);
            }}
          />
        )}
      </LabeledControl>
      {when && (
        <LabeledControl id={`${idPrefix}-when-operator`} label={t('condition.operator')} className="field-inline">
          {(control) => (
            <Select
              {...control}
              size="small"
              value={operator}
              options={operators.map((choice) => ({ value: choice, label: t(`condition.operators.${choice}`) }))}
              onChange={(choice) => onChange(makeCondition(when.field, choice as ConditionOperator, [...values]))}
            />
          )}
        </LabeledControl>
      )}
      {when && target && listed && (operator === 'is' || operator === 'isNot') && (
        <>
          {target.type === 'select' && (
            <fieldset className="condition-values">
              <legend className="label">{t('condition.values')}</legend>
              {target.options
                .filter((option) => option.id.trim() !== '')
                .map((option) => (
                  <label key={option.key} className="checkbox">
                    <input
                      type="checkbox"
                      checked={values.includes(option.id.trim())}
                      onChange={(event) =>
                        setValues(
                          event.target.checked
                            ? [...values, option.id.trim()]
                            : values.filter((value) => value !== option.id.trim()),
                        )
                      }
                    />
                    {option.text.trim() || option.id}
                  </label>
                ))}
            </fieldset>
          )}
          {target.type === 'boolean' && (
            <LabeledControl id={`${idPrefix}-when-value`} label={t('condition.value')} className="field-inline">
              {(control) => (
                <Select
                  {...control}
                  size="small"
                  value={values[0] === false ? 'false' : 'true'}
                  options={[
                    { value: 'true', label: t('condition.yes') },
                    { value: 'false', label: t('condition.no') },
                  ]}
                  onChange={(choice) => setValues([choice === 'true'])}
                />
              )}
            </LabeledControl>
          )}
          {target.type !== 'select' && target.type !== 'boolean' && (
            <LabeledControl
              id={`${idPrefix}-when-values`}
              label={t('condition.values')}
              hint={t('condition.valuesHint')}
              className="field-inline"
            >
              {(control) => (
                <input
                  {...control}
                  className="input input-small"
                  value={typed}
                  onChange={(event) => {
                    setTyped(event.target.value);
                    setValues(typedValues(event.target.value, target));
                  }}
                  autoComplete="off"
                />
              )}
            </LabeledControl>
          )}
        </>
      )}
    </fieldset>
  );
}
