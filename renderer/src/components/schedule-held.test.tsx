import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RowSchedule } from '../../../common/publishing-contract.js';
import { publishingApi } from '../api/publishing-api.js';
import { typeOf } from '../test-support/fake-api.js';
import { ScheduleBadge } from './schedule-badge.js';
import { ScheduleControl, ScheduleNotice } from './schedule-control.js';

const ARTICLES = typeOf('articles', [
  { name: 'title', label: 'Title', type: 'text', required: true },
  {
    name: 'status',
    label: 'Status',
    type: 'select',
    required: false,
    options: [
      { id: 'draft', text: 'Draft' },
      { id: 'published', text: 'Published' },
    ],
  },
]);

const HELD: RowSchedule = { status: 'published', at: '2030-06-01 07:00:00', by: 'Ada', held: 'account_disabled' };
const WAITING: RowSchedule = { status: 'published', at: '2030-06-01 07:00:00', by: 'Ada' };

/** The row page's schedule widgets around a fresh query cache, the server answering `schedule`. */
function renderWithSchedule(schedule: RowSchedule, ui: React.ReactNode) {
  vi.spyOn(publishingApi, 'schedule').mockResolvedValue({ id: 'r1', schedule });
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={queries}>{ui}</QueryClientProvider>);
}

afterEach(() => vi.restoreAllMocks());

describe('a scheduled change held while its account is disabled', () => {
  it('reads "Held" in the list badge, with the reason in its tooltip', () => {
    render(<ScheduleBadge schedule={HELD} />);
    const badge = screen.getByTestId('schedule-badge');
    expect(badge.textContent).toMatch(/^Held → published · /);
    expect(badge.getAttribute('title')).toMatch(/^Held: Ada's account is disabled\./);
    expect(badge.className).toContain('badge-amber');
  });

  it('says why under the row title, and in the schedule dialog', async () => {
    renderWithSchedule(
      HELD,
      <>
        <ScheduleNotice type={ARTICLES} rowId="r1" />
        <ScheduleControl type={ARTICLES} rowId="r1" mayChange dirty={false} />
      </>,
    );
    const notice = await screen.findByTestId('schedule-held');
    expect(notice.textContent).toBe("Held: Ada's account is disabled. The change is made once it is enabled again.");
    fireEvent.click(screen.getByRole('button', { name: /schedule/i }));
    const pending = await screen.findByText(/^Pending:/);
    expect(pending.textContent).toContain("Held: Ada's account is disabled.");
  });

  it('names no account when none scheduled it', () => {
    render(<ScheduleBadge schedule={{ ...HELD, by: null }} />);
    expect(screen.getByTestId('schedule-badge').getAttribute('title')).toMatch(
      /^Held: The account that scheduled it is disabled\./,
    );
  });

  it('says nothing of a change that is not held', async () => {
    renderWithSchedule(WAITING, <ScheduleNotice type={ARTICLES} rowId="r1" />);
    const badge = await screen.findByTestId('schedule-badge');
    expect(badge.textContent).toMatch(/^Scheduled → published/);
    expect(badge.className).toContain('badge-blue');
    expect(screen.queryByTestId('schedule-held')).toBeNull();
  });
});
