/** GET /api/sessions and DELETE /api/sessions/:id: the member's signed-in devices (docs/security.md). */

/** One signed-in session as the member sees it; times are ISO 8601. */
export type MemberSession = {
  id: string;
  device: string;
  browser: string;
  createdAt: string;
  lastActiveAt: string;
  /** The session of the token that asked. */
  current: boolean;
};

/** GET /api/sessions: the member's live sessions, the most recently active first. */
export type SessionsResponse = { sessions: MemberSession[] };

export const sessionMessages = {
  notFound: 'This session was not found. It may already be signed out.',
  /** The 401 of a token whose session was signed out (Signed-in devices, or "Log out of all devices"): not an expiry. */
  signedOutElsewhere: 'You were signed out from another device.',
} as const;

/** `error.details.reason` of that 401, for the SPA to tell it from an expired token. */
export const SIGNED_OUT_REASON = 'session-signed-out';
