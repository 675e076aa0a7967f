import type { RowSchedule } from '../../../common/publishing-contract.js';
import { formatScheduleTime } from './schedule-time.js';

/** A row's pending change in a list: "→ published · Dec 1, 08:00", the time in the reader's zone. */
export function ScheduleBadge({ schedule }: { schedule: RowSchedule | null | undefined }) {
  if (!schedule) return null;
  const when = formatScheduleTime(schedule.at);
  return (
    <span
      className="badge badge-blue schedule-badge"
      title={`Scheduled: ${schedule.status} at ${when} (${schedule.at} UTC)${schedule.by ? `, by ${schedule.by}` : ''}`}
      data-testid="schedule-badge"
    >
      <span className="badge-dot" aria-hidden="true" />
      Scheduled → {schedule.status} · {when}
    </span>
  );
}
