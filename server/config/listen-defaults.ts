// Where Quire listens by default. A module of its own, free of server imports, so the desktop
// app's main process can read the defaults without loading the server it runs in a child process.

/** The port Quire listens on unless told otherwise. */
export const DEFAULT_PORT = 4780;
/** The address Quire listens on unless told otherwise: loopback only. */
export const DEFAULT_HOST = '127.0.0.1';
