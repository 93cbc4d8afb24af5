import type { OkResponse } from '../../server/src/contract/auth';
import { apiRequest } from './client';

export const DELETE_ACCOUNT_FALLBACK = 'Failed to delete account';
export const LOGOUT_ALL_FALLBACK = 'Failed to log out of all devices';
export const TOKEN_MISSING_MESSAGE = 'Authentication token missing';

/** DELETE /api/users-permissions/users/delete-account */
export async function deleteAccount({ signal }: { signal?: AbortSignal } = {}): Promise<void> {
  await apiRequest<OkResponse>('/api/users-permissions/users/delete-account', {
    method: 'DELETE',
    auth: true,
    noTokenMessage: TOKEN_MISSING_MESSAGE,
    fallback: DELETE_ACCOUNT_FALLBACK,
    signal,
  });
}

/** POST /api/auth/logout-all: the server revokes every token of the member, this device's included. */
export async function logoutAllDevices({ signal }: { signal?: AbortSignal } = {}): Promise<void> {
  await apiRequest<OkResponse>('/api/auth/logout-all', { method: 'POST', auth: true, fallback: LOGOUT_ALL_FALLBACK, signal });
}
