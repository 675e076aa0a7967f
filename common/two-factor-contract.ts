/** Two-factor sign-in's requests and answers (`/api/auth/second-factor`, `/api/account/two-factor/*`). */

/** An account's two-factor sign-in, as `/auth/me` and the security screen show it (never its secret). */
export interface TwoFactorStatus {
  /** Whether signing in asks for a code after the password. */
  enabled: boolean;
  /** Whether the server (`--require-2fa`) requires this account to enrol before it does anything else. */
  enrolment_required: boolean;
  /** Recovery codes not used yet (0 while two-factor sign-in is off). */
  recovery_codes_left: number;
}

/** `POST /api/account/two-factor/enrol`: a new secret, shown this once, to put into an authenticator app. */
export interface TwoFactorEnrolmentResponse {
  /** The secret in base32, for typing into an app by hand. */
  secret: string;
  /** The `otpauth://totp/...` URI the QR code holds. */
  uri: string;
  /** The QR code, a `data:image/png;base64,...` URL. */
  qr_code: string;
  /**
   * The same QR code as an SVG path of its dark modules, one unit each, on a `size` by `size` grid
   * (drawn by the editor, whose Content Security Policy loads no `data:` images).
   */
  qr_path: { size: number; d: string };
}

/** `POST /api/account/two-factor/confirm` and `POST /api/auth/second-factor`: a code from the app (or a recovery code). */
export interface TwoFactorCodeRequest {
  code: string;
}

/** `POST /api/account/two-factor/confirm`: two-factor sign-in is on; the recovery codes, shown this once. */
export interface TwoFactorConfirmedResponse {
  status: TwoFactorStatus;
  recovery_codes: string[];
}

/** `POST /api/account/two-factor/disable`: the password and a code (or a recovery code). */
export interface TwoFactorDisableRequest {
  password: string;
  code: string;
}
