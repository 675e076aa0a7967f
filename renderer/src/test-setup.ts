import { cleanup, configure } from '@testing-library/react';
import type { FlatNamespace } from 'i18next';
import { afterEach } from 'vitest';
import { namespacesOf } from './i18n/catalogs.js';
import { ensureNamespaces } from './i18n/i18n-instance.js';
import { polyfillPopups } from './test-support/ui-controls.js';

// Testing Library unmounts after each test only when vitest globals are on; they are not here.
afterEach(() => cleanup());

// `findBy…` waits up to 1 s by default; with the server, PostgreSQL and browser suites sharing two
// cores, rendering a page in jsdom can take longer than that without anything being wrong.
configure({ asyncUtilTimeout: 5_000 });

// Radix's selects, menus and dialogs call browser features jsdom does not have.
polyfillPopups();

// Tests render screens without the lazy loaders that bring their catalogs: every namespace is loaded first.
await ensureNamespaces((await namespacesOf('en')) as FlatNamespace[]);
