/**
 * The bundle's entry (scripts/build.mjs bundles it into dist/server/bundle/server.cjs, which
 * server-bundle-main.ts runs): the `quire` command, run whatever this process's script is called.
 */
import { runCommandLine } from '../cli.js';

runCommandLine(process.argv.slice(2), true);
