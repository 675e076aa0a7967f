import { createContext, type ReactNode, useContext } from 'react';
import { mayChangeRow as mayChangeRowBy } from '../../../common/access-rules.js';
import type { AuthMeResponse, ContentRow } from '../../../common/api-contract.js';
import { LOCAL_USER } from './auth-api.js';

/** Who is signed in, what they may do, and how to sign out. */
export interface AuthState {
  me: AuthMeResponse;
  /** Ends the session and shows the sign-in page (absent where there is no session to end). */
  signOut?: () => void;
  /** Tells the editor who is signed in now (after the first-run form made the first admin). */
  signedIn?: (me: AuthMeResponse) => void;
}

const AuthContext = createContext<AuthState>({ me: LOCAL_USER });

/** Provides who is signed in to the editor. */
export function AuthProvider({ state, children }: { state: AuthState; children: ReactNode }) {
  return <AuthContext.Provider value={state}>{children}</AuthContext.Provider>;
}

/** Who is signed in (the local user when no one needs to be). */
export function useAuth(): AuthState {
  return useContext(AuthContext);
}

/**
 * Whether the signed-in person may change or delete `row` (the rule of access-rules.ts, on what
 * /auth/me publishes); without a row, whether they may create one. The server checks again; this
 * decides whether the row's page is editable or read-only.
 */
export function mayChangeRow(me: AuthMeResponse, row: Pick<ContentRow, 'created_by'> | null): boolean {
  return row === null ? me.can.create_rows : mayChangeRowBy(me.can, me.name, row.created_by);
}
