import { createHmac } from 'node:crypto';

/**
 * The header carrying a delivery's signature: `sha256=<hex HMAC-SHA256 of the body>`. It binds no
 * time, so a captured delivery can be replayed against it; it stays for receivers written before
 * SIGNATURE_V2_HEADER.
 */
export const SIGNATURE_HEADER = 'X-Quire-Signature';

/** The header carrying when a delivery was sent, in whole seconds since 1970 (UTC). */
export const TIMESTAMP_HEADER = 'X-Quire-Timestamp';

/**
 * The header carrying `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`: a receiver that checks it
 * and refuses a timestamp outside its window (five minutes, say) cannot be sent an old delivery again.
 */
export const SIGNATURE_V2_HEADER = 'X-Quire-Signature-V2';

/** How one POST to a hook went. */
export interface DeliveryOutcome {
  ok: boolean;
  /** The receiver's status, or null when none came. */
  status: number | null;
  error: string | null;
}

/** The signature header's value for `body` signed with `secret`. */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** The signature headers of `body` signed with `secret`, sent at `sentAt` (whole seconds since 1970). */
export function signatureHeaders(secret: string, body: string, sentAt: number): Record<string, string> {
  return {
    [SIGNATURE_HEADER]: signature(secret, body),
    [TIMESTAMP_HEADER]: String(sentAt),
    [SIGNATURE_V2_HEADER]: signature(secret, `${sentAt}.${body}`),
  };
}

/**
 * POSTs `body` (JSON) to `url`, signed when there is a secret. A 2xx is a delivery; anything else
 * fails it: another status, no answer within `timeoutMs`, a refused connection, and a redirect
 * (never followed: it could lead anywhere, another host included).
 */
export async function postHook(
  url: string,
  body: string,
  secret: string | null,
  headers: Record<string, string>,
  timeoutMs: number,
  /** Aborts the request (the server is stopping). */
  stop?: AbortSignal,
): Promise<DeliveryOutcome> {
  const sent: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': 'Quire-Hooks/1',
    ...headers,
  };
  if (secret) Object.assign(sent, signatureHeaders(secret, body, Math.floor(Date.now() / 1000)));
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: sent,
      body,
      redirect: 'manual',
      signal: stop ? AbortSignal.any([AbortSignal.timeout(timeoutMs), stop]) : AbortSignal.timeout(timeoutMs),
    });
    // The answer's body is not used; dropping it frees the connection.
    await response.body?.cancel().catch(() => undefined);
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status, error: null };
    const error =
      response.status >= 300 && response.status < 400
        ? `The receiver answered ${response.status} (a redirect, which is not followed)`
        : `The receiver answered ${response.status}`;
    return { ok: false, status: response.status, error };
  } catch (error) {
    return { ok: false, status: null, error: failureText(error, timeoutMs) };
  }
}

function failureText(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `No answer within ${timeoutMs / 1000} s`;
  }
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `Could not reach the receiver (${cause.code})`;
  return `Could not reach the receiver: ${error instanceof Error ? error.message : String(error)}`;
}
