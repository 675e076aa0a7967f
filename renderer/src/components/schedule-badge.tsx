import type { RowSchedule } from '../../../common/publishing-contract.js';
import { formatScheduleTime } from './schedule-time.js';

/**
 * Why a pending change waits past its time, as a sentence, or null while nothing holds it. The
 * server holds the changes of a disabled account (they are made in its name) until it is enabled.
 */
export function scheduleHeldSentence(schedule: RowSchedule): string | null {
  if (schedule.held !== 'account_disabled') return null;
  const whose = schedule.by ? `${schedule.by}'s account` : 'The account that scheduled it';
  return `Held: ${whose} is disabled. The change is made once it is enabled again.`;
}

/**
 * A row's pending change in a list: "→ published · Dec 1, 08:00", the time in the reader's zone;
 * "Held → ..." in amber while the server holds it (the sentence why in its tooltip).
 */
export function ScheduleBadge({ schedule }: { schedule: RowSchedule | null | undefined }) {
  if (!schedule) return null;
  const when = formatScheduleTime(schedule.at);
  const held = scheduleHeldSentence(schedule);
  const scheduled = `Scheduled: ${schedule.status} at ${when} (${schedule.at} UTC)${schedule.by ? `, by ${schedule.by}` : ''}`;
  return (
    <span
      className={`badge ${held ? 'badge-amber' : 'badge-blue'} schedule-badge`}
      title={held ? `${held} ${scheduled}` : scheduled}
      data-testid="schedule-badge"
    >
      <span className="badge-dot" aria-hidden="true" />
      {held ? 'Held' : 'Scheduled'} → {schedule.status} · {when}
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
