import type { ProfileUpdate, User } from '../api/types';
import { USERNAME_LENGTH, isValidEmail, usernameError, usernameMessages } from './validation';

export const LIMITS = {
  usernameMin: USERNAME_LENGTH.min,
  usernameMax: USERNAME_LENGTH.max,
  heightCm: { min: 100, max: 250 },
  weightKg: { min: 30, max: 300 },
  newPasswordMin: 6,
} as const;

export const profileMessages = {
  usernameRequired: usernameMessages.required,
  usernameTooShort: usernameMessages.tooShort,
  usernameTooLong: usernameMessages.tooLong,
  usernameInvalidCharacters: usernameMessages.invalidCharacters,
  currentPasswordRequired: 'Please enter your current password to change your email.',
  invalidEmail: 'Invalid email format',
  notPositive: 'Height and weight must be positive',
  heightRange: 'Height must be between 100-250 cm',
  weightRange: 'Weight must be between 30-300 kg',
  goalWeightRange: 'Goal weight must be between 30-300 kg',
  passwordsRequired: 'All password fields are required',
  passwordsMismatch: 'New passwords do not match',
  passwordTooShort: 'New password must be at least 6 characters',
} as const;

const within = (value: number, { min, max }: { min: number; max: number }) => value >= min && value <= max;

export type InformationFields = {
  username: string;
  email: string;
  height: number;
  currentWeight: number;
  /** Present only when the form asks for it (the e-mail is being changed). */
  currentPassword?: string;
};

/** SPEC §5 Profile Information save in the spec's order, then the server's newer username and e-mail-change rules. */
export function informationError(fields: InformationFields): string | null {
  if (!fields.username.trim()) return profileMessages.usernameRequired;
  if (fields.username.trim().length < LIMITS.usernameMin) return profileMessages.usernameTooShort;
  if (!isValidEmail(fields.email)) return profileMessages.invalidEmail;
  if (!(fields.height > 0) || !(fields.currentWeight > 0)) return profileMessages.notPositive;
  if (!within(fields.height, LIMITS.heightCm)) return profileMessages.heightRange;
  if (!within(fields.currentWeight, LIMITS.weightKg)) return profileMessages.weightRange;
  const username = usernameError(fields.username);
  if (username) return username;
  if (fields.currentPassword !== undefined && !fields.currentPassword) return profileMessages.currentPasswordRequired;
  return null;
}

/** The server compares e-mails trimmed and case-insensitively. */
export function isEmailChange(typed: string, saved: string): boolean {
  return typed.trim().toLowerCase() !== saved.trim().toLowerCase();
}

const PASSWORDLESS_PROVIDERS: readonly string[] = ['google', 'apple', 'facebook'];

/**
 * Whether saving `typedEmail` needs the member's current password. Accounts that sign in with
 * Google, Apple or Facebook have none; the server explains that they cannot change their e-mail.
 */
export function needsCurrentPassword(user: Pick<User, 'email' | 'provider'>, typedEmail: string): boolean {
  return !PASSWORDLESS_PROVIDERS.includes(user.provider) && isEmailChange(typedEmail, user.email);
}

/** SPEC §5 Goals save: a goal weight above 0 must be 30-300 kg. */
export function goalsError(fields: { goal_weight: number }): string | null {
  if (fields.goal_weight > 0 && !within(fields.goal_weight, LIMITS.weightKg)) return profileMessages.goalWeightRange;
  return null;
}

export type PasswordChangeFields = { currentPassword: string; password: string; passwordConfirmation: string };

/** SPEC §5 Password change. */
export function passwordChangeError(fields: PasswordChangeFields): string | null {
  if (!fields.currentPassword || !fields.password || !fields.passwordConfirmation) return profileMessages.passwordsRequired;
  if (fields.password !== fields.passwordConfirmation) return profileMessages.passwordsMismatch;
  if (fields.password.length < LIMITS.newPasswordMin) return profileMessages.passwordTooShort;
  return null;
}

/** The first SPEC §5 rule a section's update breaks, or null. */
export function profileUpdateError(update: ProfileUpdate): string | null {
  switch (update.section) {
    case 'information':
      return informationError({
        username: update.values.username,
        email: update.values.email,
        currentPassword: update.values.currentPassword,
        height: update.values.bmi.height,
        currentWeight: update.values.bmi.currentWeight,
      });
    case 'goals':
      return goalsError(update.values);
    default:
      return null;
  }
}
