import { describe, expect, it } from 'vitest';
import { type Catalog, loadAllCatalogs } from './catalogs.js';
import { FALLBACK_LANGUAGE, LANGUAGES } from './languages.js';

/** Every message of a catalog by its dotted key. */
function flatten(catalog: Catalog, prefix = ''): Map<string, string> {
  const messages = new Map<string, string>();
  for (const [key, value] of Object.entries(catalog)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') messages.set(path, value);
    else for (const [inner, text] of flatten(value, path)) messages.set(inner, text);
  }
  return messages;
}

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** The keys of a catalog with plural forms folded into their base key, and each base key's forms. */
function shape(messages: Map<string, string>) {
  const keys = new Set<string>();
  const plurals = new Map<string, Set<string>>();
  for (const key of messages.keys()) {
    const match = PLURAL_SUFFIX.exec(key);
    if (match && messages.has(`${key.slice(0, match.index)}_other`)) {
      const base = key.slice(0, match.index);
      keys.add(base);
      plurals.set(base, (plurals.get(base) ?? new Set()).add(match[1]));
    } else {
      keys.add(key);
    }
  }
  return { keys, plurals };
}

const RESOURCES = await loadAllCatalogs();
const NAMESPACES = Object.keys(RESOURCES[FALLBACK_LANGUAGE]).sort();

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}|\$t\(([^)]+)\)/g)].map((m) => m[0]).sort();

describe('message catalogs', () => {
  it('has one file per namespace in every language', () => {
    for (const language of LANGUAGES) {
      expect(Object.keys(RESOURCES[language]).sort(), language).toEqual(NAMESPACES);
    }
  });

  for (const namespace of NAMESPACES) {
    const english = flatten(RESOURCES[FALLBACK_LANGUAGE][namespace]);
    const source = shape(english);
    for (const language of LANGUAGES) {
      it(`${language}/${namespace} has exactly the keys of English, each plural in the forms ${language} needs`, () => {
        const messages = flatten(RESOURCES[language][namespace] ?? {});
        const target = shape(messages);
        const missing = [...source.keys].filter((key) => !target.keys.has(key));
        const extra = [...target.keys].filter((key) => !source.keys.has(key));
        expect({ missing, extra }).toEqual({ missing: [], extra: [] });
        const forms = [...new Intl.PluralRules(language).resolvedOptions().pluralCategories].sort();
        for (const base of source.plurals.keys()) {
          expect([...(target.plurals.get(base) ?? [])].sort(), `${language}/${namespace}:${base}`).toEqual(forms);
        }
        for (const key of target.keys) {
          if (source.plurals.has(key)) continue;
          expect(target.plurals.has(key), `${language}/${namespace}:${key} is plural only here`).toBe(false);
        }
      });

      it(`${language}/${namespace} says something for every key, with the placeholders of English`, () => {
        const messages = flatten(RESOURCES[language][namespace] ?? {});
        for (const [key, text] of messages) {
          expect(text.trim(), `${language}/${namespace}:${key}`).not.toBe('');
          const base = key.replace(PLURAL_SUFFIX, '');
          const original = english.get(key) ?? english.get(`${base}_other`);
          if (original === undefined) continue;
          // A singular form may say "one" in words instead of {{count}}.
          const expected = placeholders(original).filter(
            (p) => !(key.endsWith('_one') && /\{\{\s*count\s*\}\}/.test(p)),
          );
          const actual = placeholders(text).filter((p) => !(key.endsWith('_one') && /\{\{\s*count\s*\}\}/.test(p)));
          expect(actual, `${language}/${namespace}:${key}`).toEqual(expected);
        }
      });
    }
  }
});
