import type { AuthResponse, ChangePasswordPayload } from '../../server/src/contract/auth';
import { PROFILE_PICTURE_UPLOAD, type ProfileUpdate, type User } from '../../server/src/contract/users';
import type { PendingEmailChange } from '../../server/src/contract/emailChange';
import { apiRequest } from './client';

export const LOAD_PROFILE_FALLBACK = 'Failed to load profile';
export const UPDATE_PROFILE_FALLBACK = 'Failed to update profile';
export const UPLOAD_PICTURE_FALLBACK = 'Failed to upload image';
export const CHANGE_PASSWORD_FALLBACK = 'Failed to change password';

type CallOptions = { signal?: AbortSignal };

/** GET /api/users/me?populate=* */
export function getCurrentUser({ signal }: CallOptions = {}): Promise<User> {
  return apiRequest<User>('/api/users/me', { query: { populate: '*' }, auth: true, fallback: LOAD_PROFILE_FALLBACK, signal });
}

/**
 * PUT /api/users/{userId}: the one call that writes the member's own fields. A new e-mail address is
 * not saved: it waits for the link mailed to it, and the answer's `emailChange` says so. Resolves to
 * that waiting address, else null.
 */
export async function updateUserFields(userId: string, fields: object, { signal }: CallOptions = {}): Promise<string | null> {
  const answer = await apiRequest<(User & { emailChange?: Partial<PendingEmailChange> }) | null>(
    `/api/users/${encodeURIComponent(userId)}`,
    {
      method: 'PUT',
      auth: true,
      body: fields,
      fallback: UPDATE_PROFILE_FALLBACK,
      signal,
    },
  );
  const pending = answer?.emailChange?.pendingEmail;
  return typeof pending === 'string' && pending ? pending : null;
}

/** One section's payload; resolves to the new e-mail address waiting for its link, else null. */
export function updateProfile(userId: string, update: ProfileUpdate, options: CallOptions = {}): Promise<string | null> {
  return updateUserFields(userId, update.values, options);
}

/** POST /api/upload: the picture becomes the user's profile_picture. */
export async function uploadProfilePicture(userId: string, file: File, { signal }: CallOptions = {}): Promise<void> {
  const form = new FormData();
  form.append('files', file);
  form.append('refId', userId);
  form.append('ref', PROFILE_PICTURE_UPLOAD.ref);
  form.append('field', PROFILE_PICTURE_UPLOAD.field);
  await apiRequest('/api/upload', { method: 'POST', auth: true, body: form, fallback: UPLOAD_PICTURE_FALLBACK, signal });
}

/**
 * POST /api/auth/change-password. The server revokes every earlier token and answers `{ jwt, user }`:
 * resolves to that fresh token, or null when the answer has none (the stored one is dead either way).
 */
export async function changePassword(payload: ChangePasswordPayload, { signal }: CallOptions = {}): Promise<string | null> {
  const answer = await apiRequest<Partial<AuthResponse> | null>('/api/auth/change-password', {
    method: 'POST',
    auth: true,
    body: payload,
    fallback: CHANGE_PASSWORD_FALLBACK,
    signal,
  });
  return typeof answer?.jwt === 'string' && answer.jwt ? answer.jwt : null;
}
