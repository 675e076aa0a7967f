import { describe, expect, it } from 'vitest';
import {
  baseAccountName,
  numberedName,
  parseRoleRule,
  roleForClaims,
  singleSignOnMessage,
} from './single-sign-on-rules.js';

describe('role rules', () => {
  it('parses ROLE:CLAIM=VALUE and ROLE:*, keeping = and spaces in the value', () => {
    expect(parseRoleRule('admin:groups=quire-admins')).toEqual({
      role: 'admin',
      claim: 'groups',
      value: 'quire-admins',
    });
    expect(parseRoleRule('viewer:*')).toEqual({ role: 'viewer', claim: null, value: '' });
    expect(parseRoleRule('editor:realm_access.roles=Quire Editors=A')).toEqual({
      role: 'editor',
      claim: 'realm_access.roles',
      value: 'Quire Editors=A',
    });
  });

  it('refuses a rule without a role, a claim or a value, saying the syntax', () => {
    for (const bad of [
      'owner:groups=x',
      'admin',
      'admin:',
      'admin:groups',
      'admin:groups=',
      'admin:=x',
      'admin:gr oups=x',
    ]) {
      expect(() => parseRoleRule(bad), bad).toThrow(/ROLE:CLAIM=VALUE/);
    }
  });

  it('gives the first matching rule’s role, and null when none matches', () => {
    const rules = [
      'admin:groups=quire-admins',
      'editor:email_domain=Example.com',
      'author:realm_access.roles=writer',
    ].map(parseRoleRule);
    expect(roleForClaims(rules, { groups: ['staff', 'quire-admins'], email: 'a@example.com' })).toBe('admin');
    expect(roleForClaims(rules, { groups: 'staff', email: 'b@EXAMPLE.com', email_verified: true })).toBe('editor');
    expect(roleForClaims(rules, { realm_access: { roles: ['writer'] } })).toBe('author');
    // An address the provider says is unverified proves nothing; a look-alike domain is another domain.
    expect(roleForClaims(rules, { email: 'c@example.com', email_verified: false })).toBeNull();
    expect(roleForClaims(rules, { email: 'c@notexample.com' })).toBeNull();
    expect(roleForClaims(rules, { email: 'c@example.com.evil.test' })).toBeNull();
    expect(roleForClaims(rules, { groups: { 'quire-admins': true } })).toBeNull();
    expect(roleForClaims([...rules, parseRoleRule('viewer:*')], {})).toBe('viewer');
  });
});

describe('account names from claims', () => {
  it('takes preferred_username, else the e-mail address, made valid', () => {
    expect(baseAccountName({ preferred_username: 'ada', email: 'x@y.z' })).toBe('ada');
    expect(baseAccountName({ email: 'bob@example.com' })).toBe('bob@example.com');
    expect(baseAccountName({ preferred_username: '  Zoë Smith ' })).toBe('Zo-Smith');
    expect(baseAccountName({ preferred_username: '..__x' })).toBe('x');
    expect(baseAccountName({ preferred_username: '***' })).toBe('user');
    expect(baseAccountName({})).toBe('user');
    expect(baseAccountName({ preferred_username: 'a'.repeat(100) })).toHaveLength(64);
  });

  it('numbers a taken name within 64 characters', () => {
    expect(numberedName('ada', 2)).toBe('ada-2');
    expect(numberedName('a'.repeat(64), 12)).toBe(`${'a'.repeat(61)}-12`);
  });
});

describe('sign-in page messages', () => {
  it('has a sentence per code and the general one for anything else, never the text given', () => {
    expect(singleSignOnMessage('sso_not_mapped')).toMatch(/not allowed into this Quire/);
    expect(singleSignOnMessage('call 555-0100 now')).toBe(singleSignOnMessage('sso_provider_error'));
    expect(singleSignOnMessage('toString')).toBe(singleSignOnMessage('sso_provider_error'));
    expect(singleSignOnMessage(null)).toBeNull();
  });
});
