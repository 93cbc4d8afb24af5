import type { OkResponse } from '../../server/src/contract/auth';
import type { MemberSession, SessionsResponse } from '../../server/src/contract/sessions';
import { apiRequest } from './client';

export const SESSIONS_LOAD_FALLBACK = 'Failed to load your signed-in devices';
export const SESSION_SIGN_OUT_FALLBACK = 'Failed to sign out this device';

/** GET /api/sessions: the member's signed-in sessions, the caller's marked `current`. */
export async function loadSessions({ signal }: { signal?: AbortSignal } = {}): Promise<MemberSession[]> {
  return apiRequest<SessionsResponse, MemberSession[]>('/api/sessions', {
    auth: true,
    fallback: SESSIONS_LOAD_FALLBACK,
    signal,
    read: (answer) => (Array.isArray(answer?.sessions) ? answer.sessions : undefined),
  });
}

/** DELETE /api/sessions/:id: signs one of the member's sessions out. */
export async function signOutSession(id: string, { signal }: { signal?: AbortSignal } = {}): Promise<void> {
  await apiRequest<OkResponse>(`/api/sessions/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    auth: true,
    fallback: SESSION_SIGN_OUT_FALLBACK,
    signal,
  });
}
