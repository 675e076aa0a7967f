import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AccountRepository, TokenRow } from '../db/repositories/account-repository.js';
import { TokenService } from './token-service.js';

/** A repository that keeps tokens in memory and records what it was asked. */
function memoryRepository() {
  const rows: TokenRow[] = [];
  const asked: string[] = [];
  const repository = {
    activeTokenNamed: async (name: string) => rows.some((row) => row.name === name && row.revoked_at === null),
    findAccount: async () => undefined,
    insertToken: async (row: TokenRow) => void rows.push(row),
    findTokenByHash: async (hash: string) => {
      asked.push(hash);
      return rows.find((row) => row.token_hash === hash);
    },
    touchToken: async () => {},
  } as unknown as AccountRepository;
  return { repository, rows, asked };
}

describe('TokenService', () => {
  it('stores only a hash, and checks a token by looking its whole hash up (no comparison of the token itself)', async () => {
    const { repository, rows, asked } = memoryRepository();
    const tokens = new TokenService({ repository });
    const made = await tokens.add({ name: 'ci', role: 'editor' });
    expect(made.token).toMatch(/^quire_[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(rows)).not.toContain(made.token);
    expect(rows[0].token_hash).toBe(createHash('sha256').update(made.token).digest('hex'));

    expect(await tokens.principal(made.token)).toMatchObject({ via: 'token', name: 'ci', role: 'editor' });
    // A guess that shares all but its last character is looked up the same way: by its own hash,
    // which shares nothing with the stored one, so how much of it is right cannot show in the time.
    const nearly = `${made.token.slice(0, -1)}${made.token.endsWith('A') ? 'B' : 'A'}`;
    expect(await tokens.principal(nearly)).toBeNull();
    expect(asked.at(-1)).toBe(createHash('sha256').update(nearly).digest('hex'));
    expect(asked.every((hash) => /^[0-9a-f]{64}$/.test(hash))).toBe(true);
  });

  it('refuses expired and revoked tokens', async () => {
    const { repository, rows } = memoryRepository();
    let now = Date.parse('2026-01-01T00:00:00Z');
    const tokens = new TokenService({ repository, now: () => now });
    const made = await tokens.add({ name: 'short', role: 'viewer', expires_days: 1 });
    expect(await tokens.principal(made.token)).not.toBeNull();
    now += 24 * 60 * 60_000;
    expect(await tokens.principal(made.token)).toBeNull();
    rows[0].expires_at = null;
    rows[0].revoked_at = new Date(now).toISOString();
    expect(await tokens.principal(made.token)).toBeNull();
  });
});
