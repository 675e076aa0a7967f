import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Trans } from 'react-i18next';
import type { ContentTypeSummary } from '../../../common/api-contract.js';
import type { RowSchedule } from '../../../common/publishing-contract.js';
import { describeError } from '../api/api-error.js';
import { publishingApi } from '../api/publishing-api.js';
import { forgetRows } from '../hooks/row-queries.js';
import { useT } from '../i18n/use-t.js';
import { IconClock } from './icons.js';
import { ModalDialog } from './modal-dialog.js';
import { ScheduleBadge, ScheduleHeld } from './schedule-badge.js';
import { formatScheduleTime, localInputToUtc, localInputValue, localZoneLabel } from './schedule-time.js';
import { useToast } from './toasts.js';
import { Select } from './ui/select.js';

/** The column a schedule sets. */
const STATUS = 'status';

const scheduleKey = (table: string, id: string) => ['schedule', table, id] as const;

/** The type's status select column, which a schedule sets; undefined when it has none. */
const statusColumnOf = (type: ContentTypeSummary) =>
  type.columns.find((column) => column.name === STATUS && column.type === 'select');

/** A row's pending change, read once for the page's notice and its Schedule action. */
function useRowSchedule(type: ContentTypeSummary, rowId: string): RowSchedule | null {
  const { data } = useQuery({
    queryKey: scheduleKey(type.table, rowId),
    queryFn: () => publishingApi.schedule(type.table, rowId).then((answer) => answer.schedule),
    enabled: statusColumnOf(type) !== undefined,
    retry: false,
  });
  return data ?? null;
}

/** The row's pending change under its title (nothing when there is none). */
export function ScheduleNotice({ type, rowId }: { type: ContentTypeSummary; rowId: string }) {
  const pending = useRowSchedule(type, rowId);
  return pending ? (
    <p className="schedule-notice">
      <ScheduleBadge schedule={pending} /> <ScheduleHeld schedule={pending} />
    </p>
  ) : null;
}

/**
 * The row page's Schedule action: a dialog to set (a status and a date-time in the
 * person's own time zone, which it names) or cancel the row's pending change. Only for types with
 * a status select; setting it needs the right to change the row.
 */
export function ScheduleControl({
  type,
  rowId,
  mayChange,
  dirty,
}: {
  type: ContentTypeSummary;
  rowId: string;
  mayChange: boolean;
  dirty: boolean;
}) {
  const t = useT('components');
  const status = statusColumnOf(type);
  const queries = useQueryClient();
  const [open, setOpen] = useState(false);
  const pending = useRowSchedule(type, rowId);
  if (!status || !mayChange) return null;
  const changed = (schedule: RowSchedule | null) => {
    queries.setQueryData(scheduleKey(type.table, rowId), schedule);
    // List badges show it too.
    forgetRows(queries, type.table, false);
  };
  return (
    <>
      <button type="button" className="button" onClick={() => setOpen(true)} title={t('scheduleDialog.buttonTitle')}>
        <IconClock />
        {t('scheduleDialog.button')}
      </button>
      {open && (
        <ScheduleDialog
          type={type}
          rowId={rowId}
          options={status.options ?? []}
          pending={pending}
          dirty={dirty}
          onChanged={changed}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

/** A default time: the next full hour after now. */
function nextHour(): Date {
  const date = new Date();
  date.setHours(date.getHours() + 1, 0, 0, 0);
  return date;
}

function ScheduleDialog({
  type,
  rowId,
  options,
  pending,
  dirty,
  onChanged,
  onClose,
}: {
  type: ContentTypeSummary;
  rowId: string;
  options: { id: string; text: string }[];
  pending: RowSchedule | null;
  dirty: boolean;
  onChanged(schedule: RowSchedule | null): void;
  onClose(): void;
}) {
  const notify = useToast();
  const t = useT('components');
  const initialStatus = pending?.status ?? options.find((option) => option.id === 'published')?.id ?? options[0]?.id;
  const [status, setStatus] = useState(initialStatus ?? '');
  const [when, setWhen] = useState(() =>
    localInputValue(pending ? new Date(`${pending.at.replace(' ', 'T')}Z`) : nextHour()),
  );
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const utc = localInputToUtc(when);
  const zone = localZoneLabel(utc ? new Date(`${utc.replace(' ', 'T')}Z`) : new Date());

  const run = async (work: () => Promise<RowSchedule | null>, message: string) => {
    setBusy(true);
    setProblem(null);
    try {
      onChanged(await work());
      notify('success', message);
      onClose();
    } catch (error) {
      setProblem(describeError(error));
      setBusy(false);
    }
  };
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!utc || !status) {
      setProblem(t('scheduleDialog.pickTime'));
      return;
    }
    void run(
      () => publishingApi.setSchedule(type.table, rowId, status, utc).then((answer) => answer.schedule),
      t('scheduleDialog.scheduled', { status, when: formatScheduleTime(utc) }),
    );
  };
  return (
    <ModalDialog
      title={t('scheduleDialog.title')}
      icon={<IconClock />}
      onDismiss={busy ? () => {} : onClose}
      actions={
        <>
          {pending && (
            <button
              type="button"
              className="button button-danger-quiet"
              disabled={busy}
              onClick={() =>
                void run(
                  () => publishingApi.cancelSchedule(type.table, rowId).then(() => null),
                  t('scheduleDialog.cancelled'),
                )
              }
            >
              {t('scheduleDialog.cancel')}
            </button>
          )}
          <button type="button" className="button" onClick={onClose} disabled={busy}>
            {t('common:actions.close')}
          </button>
          <button
            type="submit"
            form="schedule-form"
            className="button button-primary"
            disabled={busy || !utc}
            aria-busy={busy || undefined}
          >
            {pending ? t('scheduleDialog.reschedule') : t('scheduleDialog.button')}
          </button>
        </>
      }
    >
      <form id="schedule-form" className="schedule-form" onSubmit={submit} noValidate>
        {pending && (
          <p className="schedule-pending">
            <Trans
              t={t}
              i18nKey={pending.by ? 'scheduleDialog.pendingBy' : 'scheduleDialog.pending'}
              values={{ status: pending.status, when: formatScheduleTime(pending.at), name: pending.by }}
              components={{ strong: <strong /> }}
            />{' '}
            <ScheduleHeld schedule={pending} />
          </p>
        )}
        <label className="label" htmlFor="schedule-status">
          {t('scheduleDialog.status')}
        </label>
        <Select
          id="schedule-status"
          value={status}
          options={options.map((option) => ({ value: option.id, label: option.text }))}
          onChange={setStatus}
        />
        <label className="label" htmlFor="schedule-at">
          {t('scheduleDialog.at')}
        </label>
        <input
          id="schedule-at"
          className="input"
          type="datetime-local"
          value={when}
          onChange={(event) => setWhen(event.target.value)}
          aria-describedby="schedule-zone"
        />
        <p id="schedule-zone" className="field-hint">
          {t('scheduleDialog.zone', { zone })}
          {utc ? ` ${t('scheduleDialog.utc', { utc: utc.slice(0, 16) })}` : ''}
        </p>
        {dirty && <p className="field-hint">{t('scheduleDialog.dirty')}</p>}
        {problem && (
          <p className="field-error" role="alert">
            {problem}
          </p>
        )}
      </form>
    </ModalDialog>
  );
}
