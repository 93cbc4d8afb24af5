import {
  boolean,
  maxLength,
  maxValue,
  minValue,
  nullable,
  number,
  picklist,
  pipe,
  string,
  type GenericSchema,
  type InferOutput,
} from 'valibot';
import { USERNAME_LENGTH, emailMessages, isValidEmail, usernameError, usernameMessages } from './fieldRules';
import { changePasswordBody, passwordChangeForm, passwordChangeMessages } from './passwords';
import { firstError, parseBody } from './schema';
import type { ProfileUpdate, User } from './users';

/**
 * SPEC §5 / §7 profile rules: the profile forms check them before sending, and the server guard of
 * PUT /api/users/:id and POST /api/auth/change-password enforces them. The forms check in the
 * spec's order; the server checks field by field; both read the same field schemas below, and each
 * limit is written once (LIMITS, USERNAME_LENGTH, PASSWORD_MIN_LENGTH), its message built from it.
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

/** The only keys PUT /api/users/:id accepts: the section payloads of SPEC §7. */
export const PROFILE_FIELDS = [
  'username',
  'email',
  'bmi',
  'diet_preference',
  'ingredients',
  'goal_weight',
  'goal_reminder',
  'personal_goal_note',
  // Issue 12: shown units (values stay kg and cm) and the goal reminder e-mails on or off.
  'unit_system',
  'reminders_enabled',
  // Only with a new e-mail address; checked by the server and never saved.
  'currentPassword',
] as const;

const BMI_FIELDS = ['currentWeight', 'height', 'Gender', 'date_of_birth', 'idealBmiWeight'] as const;

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const DECIMAL_PATTERN = /^\s*\d+(?:\.\d+)?\s*$/;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
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

/** SPEC §5 "Other rules" and issue 12's settings: the choices of PUT /api/users/:id, each with its refusal. */
const genderSchema = picklist(['Male', 'Female'], profileMessages.gender);
const dietSchema = picklist(['Carnivore', 'Ketovore'], profileMessages.diet);
const reminderSchema = picklist(['daily', 'weekly'], profileMessages.reminder);
const unitSystemSchema = picklist(['metric', 'imperial'], profileMessages.unitSystem);
const remindersEnabledSchema = boolean(profileMessages.remindersEnabled);
const noteSchema = nullable(pipe(string(profileMessages.note), maxLength(LIMITS.noteMax, profileMessages.note)));

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
function measuresError(height: number | undefined, weight: number | undefined): string | null {
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

/** A broken rule: the message to send, and the offending fields when they are named. */
export type RuleBreak = { message: string; fields?: string[] };
export type Checked<T> = { ok: true; value: T } | { ok: false; broken: RuleBreak };

class Broken extends Error {
  constructor(readonly broken: RuleBreak) {
    super(broken.message);
  }
}

function refuse(message: string, fields?: string[]): never {
  throw new Broken(fields ? { message, fields } : { message });
}

/** The value as the field's schema reads it, or its refusal. */
function take<TSchema extends GenericSchema>(schema: TSchema, value: unknown): InferOutput<TSchema> {
  const checked = parseBody(schema, value);
  return checked.ok ? checked.value : refuse(checked.message);
}

/** A finite number, or a decimal string ("72.5"); null otherwise. */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && DECIMAL_PATTERN.test(value)) return Number(value);
  return null;
}

function refuseUnknownKeys(keys: string[], where = ''): never {
  const list = keys.map((key) => `"${where}${key}"`).join(', ');
  return refuse(
    keys.length === 1 ? `Field ${list} cannot be updated` : `Fields ${list} cannot be updated`,
    keys.map((key) => `${where}${key}`),
  );
}

function validDateOfBirth(value: string): boolean {
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return false;
  return year >= 1900 && date.getTime() <= Date.now();
}

function normalizeBmi(value: unknown): Record<string, unknown> {
  if (!isPlainObject(value)) return refuse(profileMessages.bmiNotAnObject);
  const unknown = Object.keys(value).filter((key) => !(BMI_FIELDS as readonly string[]).includes(key));
  if (unknown.length > 0) refuseUnknownKeys(unknown, 'bmi.');

  // The component is replaced as a whole: what is not sent gets the schema default (or null), except
  // height and weight: sent without both, the route keeps the saved ones (profile-guard.ts).
  const bmi: Record<string, unknown> = { Gender: 'Male', date_of_birth: null, idealBmiWeight: null };
  if (value.height !== undefined || value.currentWeight !== undefined) {
    // Missing or not a number, the other of the two is not positive.
    const height = toNumber(value.height) ?? Number.NaN;
    const weight = toNumber(value.currentWeight) ?? Number.NaN;
    const broken = measuresError(height, weight);
    if (broken) refuse(broken);
    bmi.height = height;
    bmi.currentWeight = weight;
  }

  if (value.Gender !== undefined) bmi.Gender = take(genderSchema, value.Gender);
  if (value.date_of_birth !== undefined && value.date_of_birth !== null && value.date_of_birth !== '') {
    if (typeof value.date_of_birth !== 'string' || !validDateOfBirth(value.date_of_birth)) refuse(profileMessages.dateOfBirth);
    bmi.date_of_birth = value.date_of_birth;
  }
  if (value.idealBmiWeight !== undefined && value.idealBmiWeight !== null) {
    const ideal = toNumber(value.idealBmiWeight);
    if (ideal === null || ideal > LIMITS.idealBmiWeightMax) refuse(profileMessages.idealBmiWeight);
    bmi.idealBmiWeight = String(ideal);
  }
  return bmi;
}

function normalize(body: unknown): Record<string, unknown> {
  if (!isPlainObject(body)) return refuse(profileMessages.notAnObject);
  const keys = Object.keys(body);
  const unknown = keys.filter((key) => !(PROFILE_FIELDS as readonly string[]).includes(key));
  if (unknown.length > 0) refuseUnknownKeys(unknown);
  if (keys.length === 0) refuse(profileMessages.nothingToUpdate);

  const data: Record<string, unknown> = {};
  if ('username' in body) {
    const username = typeof body.username === 'string' ? body.username.trim() : '';
    const broken = usernameError(username);
    if (broken) refuse(broken);
    data.username = username;
  }
  if ('email' in body) {
    const email = typeof body.email === 'string' ? body.email.trim() : '';
    if (!isValidEmail(email)) refuse(profileMessages.invalidEmail);
    data.email = email.toLowerCase();
  }
  if ('bmi' in body) data.bmi = normalizeBmi(body.bmi);
  if ('diet_preference' in body) data.diet_preference = take(dietSchema, body.diet_preference);
  if ('ingredients' in body) {
    const list = body.ingredients;
    if (!Array.isArray(list) || list.length > LIMITS.ingredientsHardMax || !list.every((id) => Number.isSafeInteger(id) && id > 0)) {
      refuse(profileMessages.ingredientsList);
    }
    data.ingredients = [...new Set(list as number[])];
  }
  if ('goal_weight' in body) {
    const goal = body.goal_weight === null ? 0 : toNumber(body.goal_weight);
    // The server also refuses a negative goal, which the form cannot send.
    if (goal === null || goal < 0 || goalsError({ goal_weight: goal })) refuse(profileMessages.goalWeightRange);
    data.goal_weight = goal;
  }
  if ('goal_reminder' in body) data.goal_reminder = take(reminderSchema, body.goal_reminder);
  if ('personal_goal_note' in body) data.personal_goal_note = take(noteSchema, body.personal_goal_note);
  if ('unit_system' in body) data.unit_system = take(unitSystemSchema, body.unit_system);
  if ('reminders_enabled' in body) data.reminders_enabled = take(remindersEnabledSchema, body.reminders_enabled);
  if ('currentPassword' in body) {
    if (typeof body.currentPassword !== 'string') refuse(profileMessages.currentPasswordRequired);
    data.currentPassword = body.currentPassword;
  }
  return data;
}

/**
 * Checks a PUT /api/users/:id body field by field and gives what may be saved (trimmed username
 * and e-mail, lower-cased e-mail, numbers as numbers, the whole bmi component, unique ingredient
 * ids), or the first broken rule. Ingredient ids are only checked for shape here.
 */
export function checkProfileUpdate(body: unknown): Checked<Record<string, unknown>> {
  try {
    return { ok: true, value: normalize(body) };
  } catch (error) {
    if (error instanceof Broken) return { ok: false, broken: error.broken };
    throw error;
  }
}

/** The server's check of a change-password body: only the new password's length is ours (Strapi checks the rest). */
export function changePasswordBodyError(body: unknown): string | null {
  if (isPlainObject(body) && typeof body.password === 'string' && body.password.length > 0) return firstError(changePasswordBody, body);
  return null;
}
