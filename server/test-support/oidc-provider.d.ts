/**
 * The little of `oidc-provider` the tests' provider uses (the package ships no types, and its
 * DefinitelyTyped package is not installed): a provider made from a configuration, and its handler.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  /** A person the provider signs in: an id and their claims. */
  interface ProviderAccount {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }

  /** The configuration members the tests set. */
  interface ProviderConfiguration {
    clients: Record<string, unknown>[];
    pkce?: { required: () => boolean };
    cookies?: { keys: string[] };
    claims?: Record<string, string[]>;
    features?: Record<string, { enabled: boolean }>;
    findAccount(context: unknown, id: string): Promise<ProviderAccount | undefined>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: ProviderConfiguration);
    on(event: string, listener: (...args: unknown[]) => void): this;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
