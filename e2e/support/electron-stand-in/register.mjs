// `node --import ./register.mjs dist/electron/main/main.js`: runs Quire's main process under plain
// Node, with `electron` resolved to electron-stand-in.mjs. For tests on machines without the
// Electron binary; see e2e/desktop-main-stand-in.test.ts.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
