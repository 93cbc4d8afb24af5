import type { Core } from '@strapi/strapi';
import { UID } from '../content-types';
import type { AccountDeletionService } from '../api/account/services/account-deletion';
import type { WeightEntryService } from '../api/weight-entry/services/weight-entry';
import type { PasskeyService } from '../api/passkey/services/passkey';
import type { GoalReminderService } from '../api/reminder/services/goal-reminders';

/**
 * Issue 12 at start-up, idempotent: members from before `unit_system` and `reminders_enabled`
 * existed get their defaults (the columns were added empty), and account deletion removes the
 * member's weight entries and reminder claims (and passkeys, issue 23).
 */
export async function setupProgress(strapi: Core.Strapi): Promise<void> {
  const users = strapi.db.query(UID.user);
  await users.updateMany({ where: { unit_system: null }, data: { unit_system: 'metric' } });
  await users.updateMany({ where: { reminders_enabled: null }, data: { reminders_enabled: true } });

  const deletion = strapi.service('api::account.account-deletion') as unknown as AccountDeletionService;
  const registered = deletion.cleanups();
  if (!registered.includes('weight-entries')) {
    deletion.registerCleanup('weight-entries', async (user) => {
      await (strapi.service('api::weight-entry.weight-entry') as unknown as WeightEntryService).removeAll(user.id);
    });
  }
  if (!registered.includes('passkeys')) {
    deletion.registerCleanup('passkeys', async (user) => {
      await (strapi.service('api::passkey.passkey') as unknown as PasskeyService).removeAll(user.id);
    });
  }
  if (!registered.includes('goal-reminders')) {
    deletion.registerCleanup('goal-reminders', async (user) => {
      await (strapi.service('api::reminder.goal-reminders') as unknown as GoalReminderService).removeAll(user.id);
    });
  }
}
