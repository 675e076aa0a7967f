// Imported first by main.ts: Electron needs the user-data folder set before the app is ready, and
// in an ES module only the side effects of imports are sure to run that early.
import { app } from 'electron';
import { resolveUserDataDir } from './settings-store.js';

const userData = resolveUserDataDir(process.env, app.getPath('userData'));
if (userData !== app.getPath('userData')) app.setPath('userData', userData);
