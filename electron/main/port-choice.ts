/** Where the port number came from: a user's explicit choice is never silently replaced. */
export type PortSource = 'argument' | 'environment' | 'remembered' | 'default';

/** The port to try first and whether it was asked for explicitly. */
export interface PortChoice {
  port: number;
  source: PortSource;
}

/** Inputs of the port choice, most specific first. */
export interface PortInputs {
  /** `--port` on the command line. */
  argPort?: number;
  /** `QUIRE_PORT`. */
  envPort?: number;
  /** The port the last session listened on (settings). */
  rememberedPort?: number | null;
  defaultPort: number;
}

/** True for 0 (any free port) through 65535. */
export function isValidPort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 65535;
}

/** Reads a port from text; undefined when absent, an error message when malformed. */
export function parsePort(text: string | undefined, name: string): number | undefined | { error: string } {
  if (text === undefined || text.trim() === '') return undefined;
  const port = Number(text);
  if (!/^\d+$/.test(text.trim()) || !isValidPort(port)) {
    return { error: `${name} must be a whole number from 0 to 65535 (0 picks a free port)` };
  }
  return port;
}

/**
 * Picks the port: `--port`, then `QUIRE_PORT`, then the port remembered from the last session (so
 * the API URL copied into a static-site build and the editor's saved state stay the same), then
 * the default.
 */
export function choosePort(inputs: PortInputs): PortChoice {
  if (isValidPort(inputs.argPort)) return { port: inputs.argPort, source: 'argument' };
  if (isValidPort(inputs.envPort)) return { port: inputs.envPort, source: 'environment' };
  if (isValidPort(inputs.rememberedPort) && inputs.rememberedPort !== 0) {
    return { port: inputs.rememberedPort, source: 'remembered' };
  }
  return { port: inputs.defaultPort, source: 'default' };
}

/** True when the user asked for this port, so failing to get it is an error rather than a detour. */
export function isExplicit(choice: PortChoice): boolean {
  return choice.source === 'argument' || choice.source === 'environment';
}

/**
 * The ports to try in order: an explicit port alone; a remembered or default port, then any free
 * port (0) when it is taken (by `npm run serve`, or another program).
 */
export function portAttempts(choice: PortChoice): number[] {
  if (isExplicit(choice) || choice.port === 0) return [choice.port];
  return [choice.port, 0];
}

/**
 * Starts something on the first port of `portAttempts` that is not in use. Only "address in use"
 * moves on to the next port; any other failure is final.
 */
export async function startOnFirstFreePort<T>(choice: PortChoice, start: (port: number) => Promise<T>): Promise<T> {
  const attempts = portAttempts(choice);
  for (const [index, port] of attempts.entries()) {
    try {
      return await start(port);
    } catch (error) {
      const inUse = (error as { code?: unknown })?.code === 'EADDRINUSE';
      if (!inUse || index === attempts.length - 1) throw error;
    }
  }
  throw new Error('unreachable: portAttempts is never empty');
}
