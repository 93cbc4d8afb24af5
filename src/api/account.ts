import { apiClient, bearerHeaders } from './client';
import { ApiError, toApiError } from './errors';

export const DELETE_ACCOUNT_FALLBACK = 'Failed to delete account';
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
