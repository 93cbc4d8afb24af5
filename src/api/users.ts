import { apiClient, bearerHeaders } from './client';
import { toApiError } from './errors';
import type { AuthResponse, ProfileUpdate, User } from './types';

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

export const UPDATE_PROFILE_FALLBACK = 'Failed to update profile';
export const UPLOAD_PICTURE_FALLBACK = 'Failed to upload image';
export const CHANGE_PASSWORD_FALLBACK = 'Failed to change password';

/** PUT /api/users/{userId} with one section's payload. */
export async function updateProfile(
  userId: string,
  update: ProfileUpdate,
  { signal }: { signal?: AbortSignal } = {},
): Promise<void> {
  try {
    await apiClient(`/api/users/${encodeURIComponent(userId)}`, {
      method: 'PUT',
      headers: bearerHeaders(),
      body: update.values,
      signal,
    });
  } catch (error) {
    throw toApiError(error, UPDATE_PROFILE_FALLBACK);
  }
}

/** POST /api/upload: the picture becomes the user's profile_picture. */
export async function uploadProfilePicture(
  userId: string,
  file: File,
  { signal }: { signal?: AbortSignal } = {},
): Promise<void> {
  const form = new FormData();
  form.append('files', file);
  form.append('refId', userId);
  form.append('ref', 'plugin::users-permissions.user');
  form.append('field', 'profile_picture');
  try {
    await apiClient('/api/upload', { method: 'POST', headers: bearerHeaders(), body: form, signal });
  } catch (error) {
    throw toApiError(error, UPLOAD_PICTURE_FALLBACK);
  }
}

export type ChangePasswordPayload = { currentPassword: string; password: string; passwordConfirmation: string };

/**
 * POST /api/auth/change-password. The server revokes every earlier token and answers `{ jwt, user }`:
 * resolves to that fresh token, or null when the answer has none (the stored one is dead either way).
 */
export async function changePassword(
  payload: ChangePasswordPayload,
  { signal }: { signal?: AbortSignal } = {},
): Promise<string | null> {
  let response: Partial<AuthResponse> | null | undefined;
  try {
    response = await apiClient<Partial<AuthResponse> | null>('/api/auth/change-password', {
      method: 'POST',
      headers: bearerHeaders(),
      body: payload,
      signal,
    });
  } catch (error) {
    throw toApiError(error, CHANGE_PASSWORD_FALLBACK);
  }
  return typeof response?.jwt === 'string' && response.jwt ? response.jwt : null;
}
