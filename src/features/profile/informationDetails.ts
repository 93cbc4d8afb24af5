import type { User } from '../../../server/src/contract/users';
import { bmiCategory, bodyMassIndex, idealBmiWeight, parseDecimal, type BmiCategory, type Gender } from '../../../machines/rules/bmi';
import { formatHeight, formatWeight, type UnitSystem } from '../../../machines/rules/units';
import { memberUnitSystem } from './progress/memberSettings';
import { formatDay } from '../../../machines/rules/dates';

const DEFAULT_GENDER: Gender = 'Male';

/** The member's body measures as the Information section reads them from the profile. */
export type MemberMeasures = { unit: UnitSystem; gender: Gender; height: number; weight: number };

export function memberMeasures(user: User): MemberMeasures {
  return {
    unit: memberUnitSystem(user),
    gender: user.bmi?.Gender ?? DEFAULT_GENDER,
    height: parseDecimal(user.bmi?.height),
    weight: parseDecimal(user.bmi?.currentWeight),
  };
}

/** One line of the Information section's view: its label and the saved value as the member reads it. */
export type InformationDetail = { label: string; value: string; category?: BmiCategory };

/**
 * The Information section's view, line by line. One source for the app's view and for the profile
 * shell painted before the app starts (src/app/profileShell.ts), so both show the same thing.
 */
export function informationDetails(user: User, now: number = Date.now()): InformationDetail[] {
  const { unit, gender, height, weight } = memberMeasures(user);
  const bmi = user.bmi;
  const currentBmi = bodyMassIndex(weight, height);
  const pending = pendingEmail(user, now);
  const idealWeight = bmi?.idealBmiWeight ? parseDecimal(bmi.idealBmiWeight) : idealBmiWeight(height, gender);
  return [
    { label: 'Username', value: user.username },
    { label: 'Email', value: user.email },
    ...(pending ? [{ label: 'New Email', value: pendingEmailNote(pending) }] : []),
    { label: 'Date of Birth', value: bmi?.date_of_birth ? formatDay(bmi.date_of_birth) : 'Not set' },
    { label: 'Gender', value: gender },
    { label: 'Height', value: formatHeight(height, unit) },
    { label: 'Weight', value: formatWeight(weight, unit) },
    { label: 'Ideal BMI Weight', value: formatWeight(idealWeight, unit) },
    currentBmi === null
      ? { label: 'Current BMI', value: 'Add your height and weight' }
      : { label: 'Current BMI', value: String(currentBmi), category: bmiCategory(currentBmi) },
  ];
}

/** The line of a new address waiting for its link (issue 23). */
export const pendingEmailNote = (email: string) =>
  `${email}: waiting for you to open the link we sent there. Until then your email stays as it is; to cancel, use the link we sent to it.`;

/** The new address waiting for its link, while the link still works. */
function pendingEmail(user: User, now: number): string | null {
  return user.pending_email && Date.parse(user.pending_email_expires_at ?? '') > now ? user.pending_email : null;
}

export const bmiBadgeClassName = (category: BmiCategory) => `bmi-badge bmi-badge--${category.colour}`;
