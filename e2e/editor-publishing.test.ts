import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScheduledRow } from '../common/publishing-contract.js';
import { type HookReceiver, startHookReceiver } from '../server/test-support/hook-receiver.js';
import { editorSuite } from './support/editor-harness.js';
import { chooseOption, toggleChoices } from './support/ui-controls.js';

/**
 * Scheduled publishing and build hooks in Chromium: the row page's Schedule action (a status and
 * a time in the person's own time zone, which it names; the pending change as a badge on the row
 * and in the list; cancel), and Settings › Hooks (add with a generated secret shown once, Send
 * test, the delivery log, delete).
 */

const suite = editorSuite();
let receiver: HookReceiver;

beforeAll(async () => {
  receiver = await startHookReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

describe('scheduling in the editor', () => {
  it('schedules a status in local time, shows it on the row and in the list, and cancels it', async () => {
    const { page } = suite;
    const row = await suite.api.create('news', {
      title: 'Morning launch',
      status: 'draft',
      published_at: '2026-01-05 09:00:00',
    });
    await page.goto(suite.url(`/news/rows/${row.id}`));
    await button(page, 'Schedule').click();
    const dialog = page.getByRole('dialog', { name: 'Schedule a change' });
    expect(await dialog.getByText(/Your time zone: .+ \(UTC[+−]\d{2}:\d{2}\)/).count()).toBe(1);
    await chooseOption(dialog.getByLabel('Set the status to'), 'Published');
    await dialog.getByLabel('At', { exact: true }).fill('2030-06-01T09:30');
    const expectedUtc = await page.evaluate(() =>
      new Date('2030-06-01T09:30').toISOString().slice(0, 19).replace('T', ' '),
    );
    expect(await dialog.getByText(`That is ${expectedUtc.slice(0, 16)} UTC.`).count()).toBe(1);
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.getByText(/^Scheduled: published at/).waitFor();

    const badge = page.getByTestId('schedule-badge');
    await badge.waitFor();
    expect(await badge.textContent()).toMatch(/Scheduled → published/);
    const stored = (await suite.api.get('news', row.id)).row as ScheduledRow;
    expect(stored.schedule).toMatchObject({ status: 'published', at: expectedUtc, by: 'tester' });
    expect(stored.status).toBe('draft');

    await page.getByRole('link', { name: 'Back to list' }).click();
    await page.waitForURL(/\/news$/);
    const listed = page.getByRole('row', { name: /Morning launch/ });
    await listed.getByTestId('schedule-badge').waitFor();

    await listed.getByRole('link', { name: 'Morning launch' }).click();
    await button(page, 'Schedule').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel schedule' }).click();
    await page.getByText('Schedule cancelled').waitFor();
    await expect.poll(() => page.getByTestId('schedule-badge').count()).toBe(0);
    expect(((await suite.api.get('news', row.id)).row as ScheduledRow).schedule).toBeNull();
  });
});

describe('Settings › Hooks', () => {
  it('adds a signed hook, sends a test, shows deliveries of changes, and deletes it', async () => {
    const { page } = suite;
    await page.goto(suite.url('/settings/hooks'));
    await page.getByRole('heading', { name: 'Hooks', exact: true }).waitFor();
    await page.getByLabel('URL').fill(`${receiver.origin}/rebuild`);
    await toggleChoices(page.getByRole('button', { name: 'Content types', exact: true }), ['News']);
    await button(page, 'Generate').click();
    const secret = await page.getByLabel('Secret (optional)').inputValue();
    expect(secret.length).toBeGreaterThan(30);
    await button(page, 'Add hook').click();
    const shown = page.getByRole('status').filter({ hasText: 'is not shown again' });
    await shown.waitFor();
    expect(await shown.locator('code').textContent()).toBe(secret);
    const hook = page.getByTestId('hook');
    expect(await hook.textContent()).toMatch(/rebuild.*every change · news · signed/);

    await hook.getByRole('button', { name: 'Send test' }).click();
    await page.getByText('Test delivered (200)').waitFor();
    const [test] = await receiver.waitFor(1);
    expect(test.body).toMatchObject({ event: 'test' });
    expect(test.headers['x-quire-signature']).toBe(
      `sha256=${createHmac('sha256', secret).update(test.raw).digest('hex')}`,
    );
    const log = hook.getByRole('table');
    await log.getByText('Test delivered').waitFor();

    const row = await suite.api.create('news', {
      title: 'Rebuild me',
      status: 'draft',
      published_at: '2026-01-05 09:00:00',
    });
    const [, change] = await receiver.waitFor(2);
    expect(change.body).toMatchObject({ event: 'content.change', type: 'news', id: row.id, action: 'create' });
    await hook.getByRole('button', { name: 'Refresh' }).click();
    await log.getByText('Delivered', { exact: true }).waitFor();

    await hook.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('No hooks yet').waitFor();
  });
});
