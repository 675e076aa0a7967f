import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OpenTestDatabase, openTestDatabase } from '../test-support/test-database.js';
import { AuditService, storable, withoutSecrets } from './audit-service.js';

describe('withoutSecrets', () => {
  it('drops members named like secrets at any depth and keeps the rest', () => {
    const clean = withoutSecrets({
      role: 'editor',
      password: 'hunter2',
      new_password: 'x',
      nested: { secret: 's', url: 'http://h', list: [{ token: 't', name: 'n' }] },
      totp_secret: 'ABC',
      recovery_codes: ['a'],
    });
    expect(clean).toEqual({ role: 'editor', nested: { url: 'http://h', list: [{ name: 'n' }] } });
  });
});

describe('storable', () => {
  it('keeps a hostile name recordable on every engine: NUL as U+FFFD, cut to 200 characters', () => {
    expect(storable('ada\u0000')).toBe('ada\uFFFD');
    expect(storable('x'.repeat(500))).toBe(`${'x'.repeat(200)}…`);
    expect(storable('ada')).toBe('ada');
    expect(storable(null)).toBeNull();
  });
});

describe('AuditService', () => {
  let opened: OpenTestDatabase;
  let clock: Date;
  let audit: AuditService;

  beforeEach(async () => {
    opened = await openTestDatabase();
    clock = new Date('2026-01-01T00:00:00Z');
    audit = new AuditService({ db: opened.database.db, days: 10, now: () => clock });
  });
  afterEach(async () => {
    audit.stop();
    await opened.dispose();
  });

  const at = (iso: string) => {
    clock = new Date(iso);
  };

  it('records events and lists them newest first with filters and paging', async () => {
    at('2026-01-01T10:00:00Z');
    await audit.record({ action: 'sign_in.failed', actor: null, address: '10.0.0.1', target: 'ann' });
    at('2026-01-02T10:00:00Z');
    await audit.record({ action: 'sign_in.succeeded', actor: 'ann', address: '10.0.0.1', target: 'ann' });
    at('2026-01-03T10:00:00Z');
    await audit.record({ action: 'account.role_changed', actor: 'ann', target: 'bob', detail: { role: 'admin' } });

    const all = await audit.list({}, { limit: 20, offset: 0 });
    expect(all.total).toBe(3);
    expect(all.retention_days).toBe(10);
    expect(all.events.map((event) => event.action)).toEqual([
      'account.role_changed',
      'sign_in.succeeded',
      'sign_in.failed',
    ]);
    expect(all.events[0]).toMatchObject({
      actor: 'ann',
      address: null,
      target: 'bob',
      detail: { role: 'admin' },
      at: '2026-01-03 10:00:00.000000',
    });

    expect((await audit.list({ action: 'sign_in.failed' }, { limit: 20, offset: 0 })).events).toHaveLength(1);
    expect((await audit.list({ actor: 'ann' }, { limit: 20, offset: 0 })).total).toBe(2);
    expect((await audit.list({ target: 'ann' }, { limit: 20, offset: 0 })).total).toBe(2);
    const window = await audit.list(
      { since: '2026-01-02 00:00:00.000000', until: '2026-01-02 23:59:59.999999' },
      { limit: 20, offset: 0 },
    );
    expect(window.events.map((event) => event.action)).toEqual(['sign_in.succeeded']);

    const page = await audit.list({}, { limit: 1, offset: 1 });
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.events.map((event) => event.action)).toEqual(['sign_in.succeeded']);
  });

  it('never stores a member named like a secret', async () => {
    await audit.record({
      action: 'account.password_changed',
      actor: 'cli',
      target: 'ann',
      detail: { password: 'correct horse battery', by: 'cli' },
    });
    const { events } = await audit.list({}, { limit: 20, offset: 0 });
    expect(events[0]?.detail).toEqual({ by: 'cli' });
    expect(JSON.stringify(events)).not.toContain('correct horse battery');
  });

  it('purges the events older than the retention, on start and when asked', async () => {
    at('2026-01-01T00:00:00Z');
    await audit.record({ action: 'first_run', actor: 'ann' });
    at('2026-01-08T00:00:00Z');
    await audit.record({ action: 'token.created', actor: 'ann', target: 'ci' });
    at('2026-01-12T00:00:00Z');
    await audit.start(() => {});
    expect((await audit.list({}, { limit: 20, offset: 0 })).events.map((event) => event.action)).toEqual([
      'token.created',
    ]);
    at('2026-01-19T00:00:00Z');
    expect(await audit.purge()).toBe(1);
    expect((await audit.list({}, { limit: 20, offset: 0 })).total).toBe(0);
  });

  it('reports a failure to record instead of throwing', async () => {
    const reported: string[] = [];
    const broken = new AuditService({ db: opened.database.db, log: (message) => reported.push(message) });
    await opened.dispose();
    await expect(broken.record({ action: 'first_run', actor: 'ann' })).resolves.toBeUndefined();
    expect(reported).toEqual(['Recording the audit event first_run failed:']);
    opened = await openTestDatabase();
  });
});
