// The desktop app's entry (package.json "main" -> dist/electron/main/main.js).
import './early-setup.js';
import { runDesktopApp } from './app-lifecycle.js';

runDesktopApp();
