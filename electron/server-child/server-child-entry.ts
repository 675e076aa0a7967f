// Entry of the server child: runs inside an Electron utilityProcess forked by the main process
// (electron/main/server-launcher.ts), so SQLite work never blocks the window.
import { sessionIdleFromEnv } from '../../server/config/quire-config.js';
import { startServer } from '../../server/server.js';
import { type ParentPortLike, runServerChild } from './server-child.js';

/** Gives a last message time to reach the main process before the child exits. */
const EXIT_GRACE_MS = 200;

const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
if (!parentPort) {
  console.error('quire: this file runs inside the Quire desktop app; use `npm run serve` for the headless server.');
  process.exitCode = 2;
} else {
  runServerChild(parentPort, {
    // The desktop app's server process reads its own environment, as `quire serve` does in QuireConfig.
    startServer: (options) => startServer({ sessionIdleMs: sessionIdleFromEnv(process.env), ...options }),
    exit: (code) => {
      setTimeout(() => process.exit(code), EXIT_GRACE_MS);
    },
  });
}
