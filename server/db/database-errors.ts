/**
 * A database that cannot be used, whichever engine holds it: the commands print its message as
 * their one line, so each engine's own connection error extends it (PostgreSQL's in
 * `postgres/postgres-errors.ts`) and no command names an engine to catch it.
 */

/** A database that cannot be used; the message is one line, naming where it is and never credentials. */
export class DatabaseUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseUnavailableError';
  }
}
