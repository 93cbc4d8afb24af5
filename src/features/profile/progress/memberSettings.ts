import type { User } from '../../../../server/src/contract/users';
import { unitSystemOf, type UnitSystem } from '../../../../machines/rules/units';

type Settings = Pick<User, 'unit_system' | 'reminders_enabled'>;

/** The member's unit setting (metric when the profile has none). */
export function memberUnitSystem(user: Settings): UnitSystem {
  return unitSystemOf(user.unit_system);
}

/** Goal reminders are on unless the member turned them off. */
export function memberRemindersEnabled(user: Settings): boolean {
  return user.reminders_enabled !== false;
}
