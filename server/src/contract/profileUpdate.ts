import {
  array,
  boolean,
  check,
  custom,
  literal,
  maxLength,
  minValue,
  nullable,
  number,
  object,
  optional,
  picklist,
  pipe,
  safeInteger,
  string,
  transform,
  union,
  unknown,
} from 'valibot';
import { isValidEmail, usernameError } from './fieldRules';
import { LIMITS, goalWeightSchema, isPlainObject, measuresError, profileMessages, toNumber } from './profileRules';

/**
 * The body of PUT /api/users/:id as a whole (SPEC §7's section payloads): which keys it takes and each
 * key's rule, in the order the server guard checks them (profile-guard.ts). The field rules shared with
 * the profile forms, and every message, are profileRules'; this module is the server's read of the body,
 * which the SPA never imports (its forms check section by section, in the spec's order).
 */

/** A key the route does not take (a bmi's named "bmi.<key>"). */
export const cannotBeUpdated = (keys: string[]): string => {
  const list = keys.map((key) => `"${key}"`).join(', ');
  return keys.length === 1 ? `Field ${list} cannot be updated` : `Fields ${list} cannot be updated`;
};

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** SPEC §5 "Other rules" and issue 12's settings: the choices of PUT /api/users/:id, each with its refusal. */
const genderSchema = picklist(['Male', 'Female'], profileMessages.gender);
const dietSchema = picklist(['Carnivore', 'Ketovore'], profileMessages.diet);
const reminderSchema = picklist(['daily', 'weekly'], profileMessages.reminder);
const unitSystemSchema = picklist(['metric', 'imperial'], profileMessages.unitSystem);
const remindersEnabledSchema = boolean(profileMessages.remindersEnabled);
const noteSchema = nullable(pipe(string(profileMessages.note), maxLength(LIMITS.noteMax, profileMessages.note)));

function validDateOfBirth(value: string): boolean {
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return false;
  return year >= 1900 && date.getTime() <= Date.now();
}

/** The keys of `value` its schema has no entry for, named as a refusal names them (`where` + key). */
function unknownKeys(value: Record<string, unknown>, entries: object, where = ''): string[] {
  const known = Object.keys(entries);
  return Object.keys(value)
    .filter((key) => !known.includes(key))
    .map((key) => `${where}${key}`);
}

/** An object's keys must all be its schema's: else they are named, each (`where` + key). */
/* @__NO_SIDE_EFFECTS__ */
function onlyKeysOf(entries: object, where = '') {
  return check(
    (value: Record<string, unknown>) => unknownKeys(value, entries, where).length === 0,
    (issue) => cannotBeUpdated(unknownKeys(issue.input, entries, where)),
  );
}

/** A JSON object (not an array), else `message`. */
/* @__NO_SIDE_EFFECTS__ */
function plainObject(message: string) {
  return custom<Record<string, unknown>>(isPlainObject, message);
}

/** Height and weight of a bmi, once either is sent: both as numbers (anything but a number or decimal text is NaN). */
function measuresOf(bmi: { height?: unknown; currentWeight?: unknown }): { height: number; currentWeight: number } | null {
  if (bmi.height === undefined && bmi.currentWeight === undefined) return null;
  return { height: toNumber(bmi.height) ?? Number.NaN, currentWeight: toNumber(bmi.currentWeight) ?? Number.NaN };
}

const measuresBreak = (bmi: Record<string, unknown>): string | null => {
  const measures = measuresOf(bmi);
  return measures && measuresError(measures.height, measures.currentWeight);
};

const bmiEntries = {
  // Checked together, before the rest (measuresBreak).
  height: optional(unknown()),
  currentWeight: optional(unknown()),
  Gender: optional(genderSchema),
  date_of_birth: optional(
    nullable(
      pipe(
        string(profileMessages.dateOfBirth),
        check((date) => date === '' || validDateOfBirth(date), profileMessages.dateOfBirth),
      ),
    ),
  ),
  idealBmiWeight: optional(
    nullable(
      pipe(
        unknown(),
        transform(toNumber),
        check((ideal) => ideal !== null && ideal <= LIMITS.idealBmiWeightMax, profileMessages.idealBmiWeight),
        // Stored as a decimal column.
        transform(String),
      ),
    ),
  ),
};

/**
 * The bmi component of PUT /api/users/:id, replaced as a whole: what is not sent gets the schema default
 * (or null), except height and weight: sent without both, the route keeps the saved ones (profile-guard.ts).
 */
const bmiField = pipe(
  plainObject(profileMessages.bmiNotAnObject),
  onlyKeysOf(bmiEntries, 'bmi.'),
  check(
    (bmi) => measuresBreak(bmi) === null,
    (issue) => measuresBreak(issue.input) ?? profileMessages.notPositive,
  ),
  object(bmiEntries),
  transform(({ height, currentWeight, Gender, date_of_birth, idealBmiWeight }) => ({
    Gender: Gender ?? 'Male',
    date_of_birth: date_of_birth || null,
    idealBmiWeight: idealBmiWeight ?? null,
    ...measuresOf({ height, currentWeight }),
  })),
);

/**
 * Each key PUT /api/users/:id takes (the section payloads of SPEC §7), with its rule, in the order they are
 * checked. A key's rule reads whatever was sent: anything but text is a missing username or a wrong address.
 */
const profileEntries = {
  // Trimmed, as stored.
  username: optional(
    pipe(
      unknown(),
      transform((value) => (typeof value === 'string' ? value.trim() : '')),
      check(
        (username) => usernameError(username) === null,
        (issue) => usernameError(issue.input) ?? profileMessages.usernameRequired,
      ),
    ),
  ),
  // Trimmed and lower-cased, as stored.
  email: optional(
    pipe(
      unknown(),
      transform((value) => (typeof value === 'string' ? value.trim() : '')),
      check(isValidEmail, profileMessages.invalidEmail),
      transform((email) => email.toLowerCase()),
    ),
  ),
  bmi: optional(bmiField),
  diet_preference: optional(dietSchema),
  // Only checked for shape here (the route looks them up); each id once.
  ingredients: optional(
    pipe(
      array(
        pipe(
          number(profileMessages.ingredientsList),
          safeInteger(profileMessages.ingredientsList),
          minValue(1, profileMessages.ingredientsList),
        ),
        profileMessages.ingredientsList,
      ),
      maxLength(LIMITS.ingredientsHardMax, profileMessages.ingredientsList),
      transform((ids) => [...new Set(ids)]),
    ),
  ),
  // SPEC §5 Goals: null is "no goal" (0); a negative goal, which the form cannot send, is refused too.
  goal_weight: optional(
    pipe(
      unknown(),
      transform((value) => (value === null ? 0 : toNumber(value))),
      union([literal(0), goalWeightSchema], profileMessages.goalWeightRange),
    ),
  ),
  goal_reminder: optional(reminderSchema),
  personal_goal_note: optional(noteSchema),
  // Issue 12: shown units (values stay kg and cm) and the goal reminder e-mails on or off.
  unit_system: optional(unitSystemSchema),
  reminders_enabled: optional(remindersEnabledSchema),
  // Only with a new e-mail address; checked by the route and never saved.
  currentPassword: optional(string(profileMessages.currentPasswordRequired)),
};

/**
 * PUT /api/users/:id as the server guard reads it (profile-guard.ts): a JSON object of known keys, not
 * empty, then each key's rule. The parsed value is what may be saved (trimmed username and e-mail,
 * lower-cased e-mail, numbers as numbers, the whole bmi component, unique ingredient ids). The forms
 * check their sections in the spec's order instead (profileUpdateError), from the same field rules.
 */
export const profileUpdateBody = pipe(
  plainObject(profileMessages.notAnObject),
  onlyKeysOf(profileEntries),
  check((body) => Object.keys(body).length > 0, profileMessages.nothingToUpdate),
  object(profileEntries),
);

/**
 * The keys of a PUT /api/users/:id body it does not take, as its refusal names them: the body's own, else
 * its bmi's (the guard sends them as the error's details too).
 */
export function unknownProfileKeys(body: unknown): string[] {
  if (!isPlainObject(body)) return [];
  const outer = unknownKeys(body, profileEntries);
  return outer.length === 0 && isPlainObject(body.bmi) ? unknownKeys(body.bmi, bmiEntries, 'bmi.') : outer;
}
