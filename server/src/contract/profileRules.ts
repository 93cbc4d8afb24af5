import { maxValue, minValue, number, pipe } from 'valibot';
import { USERNAME_LENGTH, emailMessages, isValidEmail, usernameError, usernameMessages } from './fieldRules';
import { changePasswordBody, passwordChangeForm, passwordChangeMessages } from './passwords';
import { firstError } from './schema';
import type { ProfileUpdate, User } from './users';

/**
 * SPEC §5 / §7 profile rules: the profile forms check them before sending, and the server guard of
 * PUT /api/users/:id and POST /api/auth/change-password enforces them. The forms check in the
 * spec's order; the server reads the PUT body as a whole (profileUpdate.ts, in its key order); both
 * read the same field schemas below, and each limit is written once (LIMITS, USERNAME_LENGTH,
 * PASSWORD_MIN_LENGTH), its message built from it.
 */

// SPEC §9 limits (and the note's), each written once; LIMITS gathers them and the messages are built from them.
const HEIGHT_MIN_CM = 100;
const HEIGHT_MAX_CM = 250;
const WEIGHT_MIN_KG = 30;
const WEIGHT_MAX_KG = 300;
const NOTE_MAX_LENGTH = 2000;

export const LIMITS = {
  usernameMin: USERNAME_LENGTH.min,
  usernameMax: USERNAME_LENGTH.max,
  heightCm: { min: HEIGHT_MIN_CM, max: HEIGHT_MAX_CM },
  weightKg: { min: WEIGHT_MIN_KG, max: WEIGHT_MAX_KG },
  noteMax: NOTE_MAX_LENGTH,
  /** More ingredient ids than this are refused before anything is looked up (far above the seeded list). */
  ingredientsHardMax: 500,
  idealBmiWeightMax: 1000,
} as const;

/** "Height must be between 100-250 cm": a range's message, from its limits. */
/* @__NO_SIDE_EFFECTS__ */
function mustBeBetween(what: string, { min, max }: { min: number; max: number }, unit: string): string {
  return `${what} must be between ${min}-${max} ${unit}`;
}

export const profileMessages = {
  notYourself: 'You can only update your own profile',
  notAnObject: 'The update must be a JSON object of profile fields',
  nothingToUpdate: 'Nothing to update',
  usernameRequired: usernameMessages.required,
  usernameTooShort: usernameMessages.tooShort,
  usernameTooLong: usernameMessages.tooLong,
  usernameInvalidCharacters: usernameMessages.invalidCharacters,
  usernameTaken: usernameMessages.taken,
  currentPasswordRequired: 'Please enter your current password to change your email.',
  currentPasswordInvalid: 'The provided current password is invalid',
  emailFixedForSocial: 'Your email cannot be changed because this account signs in with Google, Apple or Facebook.',
  invalidEmail: emailMessages.invalidFormat,
  bmiNotAnObject: 'bmi must be an object with currentWeight, height, Gender, date_of_birth and idealBmiWeight',
  notPositive: 'Height and weight must be positive',
  heightRange: mustBeBetween('Height', LIMITS.heightCm, 'cm'),
  weightRange: mustBeBetween('Weight', LIMITS.weightKg, 'kg'),
  goalWeightRange: mustBeBetween('Goal weight', LIMITS.weightKg, 'kg'),
  gender: 'Gender must be Male or Female',
  dateOfBirth: 'Date of birth must be a valid past date (YYYY-MM-DD)',
  idealBmiWeight: 'Ideal BMI weight must be a number',
  diet: 'Diet must be Carnivore or Ketovore',
  reminder: 'Reminder must be daily or weekly',
  unitSystem: 'Units must be metric or imperial',
  remindersEnabled: 'Reminders must be on (true) or off (false)',
  note: `Personal note must be text of at most ${NOTE_MAX_LENGTH} characters`,
  ingredientsList: 'Ingredients must be a list of ingredient ids',
  tooManyIngredients: (known: number) => `Choose at most ${known} ingredients`,
  unknownIngredients: (ids: number[]) => `Unknown ingredient ${ids.length === 1 ? 'id' : 'ids'}: ${ids.join(', ')}`,
  passwordsRequired: passwordChangeMessages.required,
  passwordsMismatch: passwordChangeMessages.mismatch,
  passwordTooShort: passwordChangeMessages.tooShort,
} as const;

const DECIMAL_PATTERN = /^\s*\d+(?:\.\d+)?\s*$/;

/** A JSON object (not an array or null). */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A number within the limits (NaN is not), else the message. Pure: a bundle that reads no schema drops them. */
/* @__NO_SIDE_EFFECTS__ */
function inRange({ min, max }: { min: number; max: number }, message: string) {
  return pipe(number(message), minValue(min, message), maxValue(max, message));
}

/** SPEC §5 height rule (cm): the forms' and the server's. */
export const heightSchema = inRange(LIMITS.heightCm, profileMessages.heightRange);
/** SPEC §5 weight rule (kg): the forms', the profile route's and the weight history's. */
export const weightSchema = inRange(LIMITS.weightKg, profileMessages.weightRange);
/** SPEC §5 Goals rule for a goal weight above 0 (0 is "no goal"). */
export const goalWeightSchema = inRange(LIMITS.weightKg, profileMessages.goalWeightRange);

/** SPEC §5 height rule (cm). */
export const heightError = (height: number): string | null => firstError(heightSchema, height);
/** SPEC §5 weight rule (kg). */
export const weightError = (weight: number): string | null => firstError(weightSchema, weight);

/** SPEC §5 Goals: a goal weight above 0 must be in range (the form turns an empty field into 0, "no goal"). */
export function goalsError(fields: { goal_weight: number }): string | null {
  return fields.goal_weight > 0 ? firstError(goalWeightSchema, fields.goal_weight) : null;
}

export type InformationFields = {
  username: string;
  email: string;
  /**
   * Absent, both, when the member sends neither (none given yet): the height and weight rules are
   * for saving them, and the other fields save without them (issue 21).
   */
  height?: number;
  currentWeight?: number;
  /** Present only when the form asks for it (the e-mail is being changed). */
  currentPassword?: string;
};

/** SPEC §5 height and weight rules, once either is sent: both positive (NaN is not), then in range. */
export function measuresError(height: number | undefined, weight: number | undefined): string | null {
  if (height === undefined && weight === undefined) return null;
  if (height === undefined || weight === undefined || !(height > 0) || !(weight > 0)) return profileMessages.notPositive;
  return heightError(height) ?? weightError(weight);
}

/** SPEC §5 Profile Information save in the spec's order, then the server's newer username and e-mail-change rules. */
export function informationError(fields: InformationFields): string | null {
  const username = fields.username.trim();
  if (!username) return profileMessages.usernameRequired;
  if (username.length < LIMITS.usernameMin) return profileMessages.usernameTooShort;
  if (!isValidEmail(fields.email)) return profileMessages.invalidEmail;
  const broken = measuresError(fields.height, fields.currentWeight) ?? usernameError(username);
  if (broken) return broken;
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

export type PasswordChangeFields = { currentPassword: string; password: string; passwordConfirmation: string };

/** SPEC §5 Password change, as the form checks it. */
export function passwordChangeError(fields: PasswordChangeFields): string | null {
  return firstError(passwordChangeForm, fields);
}

/** The first SPEC §5 rule a section's update breaks, or null (the forms' check before sending). */
export function profileUpdateError(update: ProfileUpdate): string | null {
  switch (update.section) {
    case 'information': {
      const { bmi } = update.values;
      return informationError({
        username: update.values.username,
        email: update.values.email,
        currentPassword: update.values.currentPassword,
        ...('height' in bmi && { height: bmi.height, currentWeight: bmi.currentWeight }),
      });
    }
    case 'goals':
      return goalsError(update.values);
    default:
      return null;
  }
}

/** A finite number, or a decimal string ("72.5"); null otherwise. */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && DECIMAL_PATTERN.test(value)) return Number(value);
  return null;
}

/** The server's check of a change-password body: only the new password's length is ours (Strapi checks the rest). */
export function changePasswordBodyError(body: unknown): string | null {
  if (isPlainObject(body) && typeof body.password === 'string' && body.password.length > 0) return firstError(changePasswordBody, body);
  return null;
}
