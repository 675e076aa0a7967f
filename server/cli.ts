#!/usr/bin/env node
/**
 * The `quire` command's entry point, kept to Node's own modules and the supervisor's. It reads the
 * process's environment once and passes it on: the commands and QuireConfig read it from there.
 *
 * `quire serve` runs the server in a child process under a supervisor (server-supervisor.ts). The
 * supervisor only starts that child and forwards signals, so it does not first load the server's
 * modules, a load the child pays anyway and a large part of the time to the first answer: the child
 * (and every other command) loads the commands (cli-commands.ts), which also check the serve
 * options and print any mistake. Where the build made the server's bundle, the other commands
 * (`import`, `export`, `backup`...) run from it, with its code cache, as the server does: one file
 * to load instead of hundreds of modules.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { serverEntryScript } from './process/server-entry.js';
import { isSupervisedServer, superviseServer } from './process/server-supervisor.js';

/** The flags that ask for help or the version instead of running a command (cli-commands.ts answers them). */
const ANSWERED_FLAGS = new Set(['--help', '-h', '--version', '-v']);

/**
 * Whether these arguments (after `quire`) run the server: `serve`, or options alone, or nothing (as
 * `main`), unless they ask for help or the version, which need no server process.
 */
export function isServeCommand(argv: readonly string[]): boolean {
  if (argv.some((arg) => ANSWERED_FLAGS.has(arg))) return false;
  return argv.length === 0 || argv[0] === 'serve' || argv[0].startsWith('-');
}

/**
 * Runs `quire` with `argv`: the exit code, or -1 while a server keeps running or while the
 * bundle runs the command (it sets the exit code itself). `inBundle`: this is the bundle's copy.
 */
async function run(argv: string[], inBundle: boolean): Promise<number> {
  const script = process.argv[1];
  // Read once here; everything below is given it (see QuireConfig).
  const env = process.env;
  if (isServeCommand(argv) && !isSupervisedServer(env)) {
    const rest = argv[0] === 'serve' ? argv.slice(1) : argv;
    return superviseServer({ args: [serverEntryScript(script), 'serve', ...rest], env });
  }
  const bundled = inBundle || !script ? script : serverEntryScript(script);
  if (bundled !== script) {
    // The bundle runs `quire` with this process's arguments (server-bundle.ts).
    await import(pathToFileURL(bundled).href);
    return -1;
  }
  const { main } = await import('./cli-commands.js');
  return main(argv, env);
}

/**
 * Output nobody reads any more (`quire types | head -1`, a closed terminal) is dropped, and the
 * command goes on with its work and its exit code: without a listener, the EPIPE Node reports on the
 * stream is an uncaught exception, printed with its stack trace in the middle of the command.
 */
export function dropOutputOnClosedPipe(stream: NodeJS.WritableStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
  });
}

/** Whether runCommandLine ran (the bundle's entry calls it, and so does this module when run as the script). */
let commandLineRan = false;

/**
 * Runs `quire` with `argv` as this process's command, once: its exit code set when it ends (a server
 * keeps running). `inBundle`: called by the bundle's entry (server-bundle.ts), which runs the
 * commands itself.
 */
export function runCommandLine(argv: string[], inBundle = false): void {
  if (commandLineRan) return;
  commandLineRan = true;
  dropOutputOnClosedPipe(process.stdout);
  dropOutputOnClosedPipe(process.stderr);
  void run(argv, inBundle).then((code) => {
    if (code >= 0) process.exitCode = code;
  });
}

/** Whether Node runs `script` (a path as given, maybe a link such as npm's bin links) as this module. */
export function isThisModule(script: string | undefined, moduleUrl: string = import.meta.url): boolean {
  if (!script) return false;
  try {
    // Node loads a linked script from its real path, so import.meta.url names the target.
    return pathToFileURL(realpathSync(script)).href === moduleUrl;
  } catch {
    return false;
  }
}

if (isThisModule(process.argv[1])) runCommandLine(process.argv.slice(2));
