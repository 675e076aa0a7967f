// The desktop app's entry (package.json "main" -> dist/electron/main/main.js).
import './user-data-override.js';
import { runDesktopApp } from './app-lifecycle.js';

runDesktopApp();
