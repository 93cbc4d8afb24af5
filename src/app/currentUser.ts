import type { User } from '../../server/src/contract/users';
import { getCurrentUser } from '../../machines/services/users';
import { readStoredSession } from '../hooks/browserSessionStore';

/**
 * GET /api/users/me as the profile shell (src/entry-profile-shell.ts) sent it before the app's code
 * loaded: the token it went with, and the member it answered, or null when it failed (the app then
 * asks again, and reports the failure its usual way).
 */
export type EarlyProfile = { jwt: string; user: Promise<User | null> };

declare global {
  interface Window {
    carnivoEarlyProfile?: EarlyProfile;
  }
}

/** The early answer, once and only for the session held now: every later load asks the server. */
function takeEarlyProfile(): Promise<User | null> | null {
  const early = window.carnivoEarlyProfile;
  delete window.carnivoEarlyProfile;
  return early && early.jwt === readStoredSession()?.jwt ? early.user : null;
}

/** The signed-in member (the loader of the pages that need one). */
export async function loadCurrentUser(signal: AbortSignal): Promise<User> {
  return (await takeEarlyProfile()) ?? getCurrentUser({ signal });
}
