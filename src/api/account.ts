import { apiClient, bearerHeaders } from './client';
import { ApiError, toApiError } from './errors';

export const DELETE_ACCOUNT_FALLBACK = 'Failed to delete account';
export const LOGOUT_ALL_FALLBACK = 'Failed to log out of all devices';
export const TOKEN_MISSING_MESSAGE = 'Authentication token missing';

/** DELETE /api/users-permissions/users/delete-account */
export async function deleteAccount({ signal }: { signal?: AbortSignal } = {}): Promise<void> {
  let headers: { Authorization: string };
  try {
    headers = bearerHeaders();
  } catch {
    throw new ApiError(TOKEN_MISSING_MESSAGE, 401);
  }
  try {
    await apiClient('/api/users-permissions/users/delete-account', { method: 'DELETE', headers, signal });
  } catch (error) {
    throw toApiError(error, DELETE_ACCOUNT_FALLBACK);
  }
}

/** POST /api/auth/logout-all: the server revokes every token of the member, this device's included. */
export async function logoutAllDevices({ signal }: { signal?: AbortSignal } = {}): Promise<void> {
  try {
    await apiClient('/api/auth/logout-all', { method: 'POST', headers: bearerHeaders(), signal });
  } catch (error) {
    throw toApiError(error, LOGOUT_ALL_FALLBACK);
  }
}
