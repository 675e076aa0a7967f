/** Where the API token is kept: per browser tab, gone when the session ends. */
const STORAGE_KEY = 'quire.apiToken';

/** The API token the user gave in this session, if any. */
export interface TokenStore {
  get(): string | null;
  set(token: string): void;
  clear(): void;
}

/** A token store over `sessionStorage` (falls back to memory where storage is blocked). */
export function sessionTokenStore(storage: Storage | undefined = safeSessionStorage()): TokenStore {
  let memory: string | null = null;
  return {
    get: () => (storage ? storage.getItem(STORAGE_KEY) : memory),
    set(token) {
      if (storage) storage.setItem(STORAGE_KEY, token);
      else memory = token;
    },
    clear() {
      if (storage) storage.removeItem(STORAGE_KEY);
      else memory = null;
    },
  };
}

function safeSessionStorage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}
