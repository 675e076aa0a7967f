import type { RowSchedule } from '../../../common/publishing-contract.js';
import { i18n } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';
import { formatScheduleTime } from './schedule-time.js';

/**
 * Why a pending change waits past its time, as a sentence, or null while nothing holds it. The
 * server holds the changes of a disabled account (they are made in its name) until it is enabled.
 */
export function scheduleHeldSentence(schedule: RowSchedule): string | null {
  if (schedule.held !== 'account_disabled') return null;
  return schedule.by
    ? i18n.t('components:schedule.heldBy', { name: schedule.by })
    : i18n.t('components:schedule.heldUnknown');
}

/**
 * A row's pending change in a list: "→ published · Dec 1, 08:00", the time in the reader's zone;
 * "Held → ..." in amber while the server holds it (the sentence why in its tooltip).
 */
export function ScheduleBadge({ schedule }: { schedule: RowSchedule | null | undefined }) {
  const t = useT('components');
  if (!schedule) return null;
  const when = formatScheduleTime(schedule.at);
  const held = scheduleHeldSentence(schedule);
  const values = { status: schedule.status, when, utc: schedule.at, name: schedule.by };
  const scheduled = schedule.by ? t('schedule.tooltipBy', values) : t('schedule.tooltip', values);
  return (
    <span
      className={`badge ${held ? 'badge-amber' : 'badge-blue'} schedule-badge`}
      title={held ? `${held} ${scheduled}` : scheduled}
      data-testid="schedule-badge"
    >
      <span className="badge-dot" aria-hidden="true" />
      {t(held ? 'schedule.badgeHeld' : 'schedule.badge', { status: schedule.status, when })}
    </span>
  );
}

/** The sentence saying why a pending change is held, under the row's title and in its dialog (nothing when it is not). */
export function ScheduleHeld({ schedule }: { schedule: RowSchedule }) {
  const held = scheduleHeldSentence(schedule);
  return held ? (
    <span className="schedule-held" data-testid="schedule-held">
      {held}
    </span>
  ) : null;
}
