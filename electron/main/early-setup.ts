// Imported first by main.ts. Some Electron calls must happen before the app is ready, and in an ES
// module entry only the side effects of its imports are sure to run that early: the user-data
// folder (QUIRE_USER_DATA_DIR moves it; the single-instance lock and settings live there) and the
// sandbox for every renderer.
import { app } from 'electron';
import { resolveUserDataDir } from './settings-store.js';

const userData = resolveUserDataDir(process.env, app.getPath('userData'));
if (userData !== app.getPath('userData')) app.setPath('userData', userData);
app.enableSandbox();
