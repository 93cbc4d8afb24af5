import type {
  NewWeightEntry,
  UnitSystem,
  WeightEntriesResponse,
  WeightEntry,
  WeightEntryResponse,
} from '../../server/src/contract/progress';
import { apiRequest } from './client';
import { updateUserFields } from './users';

type CallOptions = { signal?: AbortSignal };

/** What a failed call says when the server gives no message. */
export const progressFallbacks = {
  loadFailed: 'Failed to load weight history',
  saveFailed: 'Failed to save weight entry',
  deleteFailed: 'Failed to delete weight entry',
} as const;

/** A setting saved on its own through PUT /api/users/:id. */
export type SettingUpdate = { unit_system: UnitSystem } | { reminders_enabled: boolean };

/** GET /api/weight-entries: the member's own entries. */
export function getWeightEntries({ signal }: CallOptions = {}): Promise<WeightEntry[]> {
  return apiRequest<WeightEntriesResponse, WeightEntry[]>('/api/weight-entries', {
    auth: true,
    fallback: progressFallbacks.loadFailed,
    read: (answer) => (Array.isArray(answer?.data) ? answer.data : undefined),
    signal,
  });
}

/** POST /api/weight-entries: a second entry the same day replaces the first; answers the saved entry. */
export function addWeightEntry(entry: NewWeightEntry, { signal }: CallOptions = {}): Promise<WeightEntry> {
  return apiRequest<WeightEntryResponse, WeightEntry>('/api/weight-entries', {
    method: 'POST',
    auth: true,
    body: entry,
    fallback: progressFallbacks.saveFailed,
    read: (answer) => answer?.data,
    signal,
  });
}

/** DELETE /api/weight-entries/:id */
export async function deleteWeightEntry(id: number, { signal }: CallOptions = {}): Promise<void> {
  await apiRequest(`/api/weight-entries/${encodeURIComponent(String(id))}`, {
    method: 'DELETE',
    auth: true,
    fallback: progressFallbacks.deleteFailed,
    signal,
  });
}

/** One setting (units or reminders), saved on its own. */
export async function updateSetting(userId: string, update: SettingUpdate, options: CallOptions = {}): Promise<void> {
  await updateUserFields(userId, update, options);
}
