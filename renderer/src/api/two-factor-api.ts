import type { AuthMeResponse } from '../../../common/api-contract.js';
import type {
  TwoFactorConfirmedResponse,
  TwoFactorEnrolmentResponse,
  TwoFactorStatus,
} from '../../../common/two-factor-contract.js';
import { call } from './auth-api.js';

/** Two-factor sign-in's calls: the sign-in's second step, and one's own enrolment (`/api/account/two-factor`). */
export const twoFactorApi = {
  secondFactor: (token: string, code: string) => call<AuthMeResponse>('POST', '/auth/second-factor', { token, code }),
  status: () => call<TwoFactorStatus>('GET', '/account/two-factor'),
  enrol: () => call<TwoFactorEnrolmentResponse>('POST', '/account/two-factor/enrol'),
  confirm: (code: string) => call<TwoFactorConfirmedResponse>('POST', '/account/two-factor/confirm', { code }),
  disable: (password: string, code: string) =>
    call<TwoFactorStatus>('POST', '/account/two-factor/disable', { password, code }),
};
