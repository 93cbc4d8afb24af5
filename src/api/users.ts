import { apiClient, bearerHeaders } from './client';
import { toApiError } from './errors';
import type { User } from './types';

export const LOAD_PROFILE_FALLBACK = 'Failed to load profile';

/** GET /api/users/me?populate=* */
export async function getCurrentUser({ signal }: { signal?: AbortSignal } = {}): Promise<User> {
  try {
    return await apiClient<User>('/api/users/me', {
      query: { populate: '*' },
      headers: bearerHeaders(),
      signal,
    });
  } catch (error) {
    throw toApiError(error, LOAD_PROFILE_FALLBACK);
  }
}
