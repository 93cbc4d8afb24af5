import { errors } from '@strapi/utils';
import { USERNAME_LIMITS, USERNAME_MESSAGES, usernameError, usernameTaken } from '../../security/identifiers';

/**
 * Guards of the member-facing users-permissions routes (see README "Profile"):
 *
 * - PUT /api/users/:id (user.update): a member updates only themselves, and only the fields of the
 *   profile sections (SPEC §7) under the same rules as the forms (SPEC §5). A new e-mail address
 *   needs the current password in the same request (a stolen token alone cannot take the account
 *   over through a reset), and the old address is told. The plugin's own controller then runs
 *   (e-mail uniqueness, save through the Document Service).
 * - POST /api/auth/change-password: the new password needs at least 6 characters (SPEC §5, §9);
 *   Strapi itself only checks the current password and the confirmation.
 *
 * Everything else about these routes stays Strapi's: auth, role permission, rate limit, controller.
 */

// PolicyError: a 403 whose message reaches the client (Strapi turns a plain ForbiddenError into 'Forbidden').
const { ValidationError, PolicyError, ApplicationError } = errors;

type Ctx = {
  params: Record<string, string>;
  request: { body?: unknown };
  state: { user?: { id: number | string } };
  status: number;
};
type Next = () => Promise<unknown>;

/** SPEC §5 / §9 limits and messages, as the profile forms show them. */
export const PROFILE_LIMITS = {
  usernameMin: USERNAME_LIMITS.min,
  usernameMax: USERNAME_LIMITS.max,
  heightCm: { min: 100, max: 250 },
  weightKg: { min: 30, max: 300 },
  noteMax: 2000,
  newPasswordMin: 6,
} as const;

export const PROFILE_MESSAGES = {
  notYourself: 'You can only update your own profile',
  notAnObject: 'The update must be a JSON object of profile fields',
  nothingToUpdate: 'Nothing to update',
  usernameRequired: USERNAME_MESSAGES.required,
  usernameTooShort: USERNAME_MESSAGES.tooShort,
  usernameTooLong: USERNAME_MESSAGES.tooLong,
  usernameCharacters: USERNAME_MESSAGES.characters,
  usernameTaken: USERNAME_MESSAGES.taken,
  currentPasswordRequired: 'Please enter your current password to change your email.',
  currentPasswordInvalid: 'The provided current password is invalid',
  emailFixedForSocial: 'Your email cannot be changed because this account signs in with Google, Apple or Facebook.',
  invalidEmail: 'Invalid email format',
  bmiNotAnObject: 'bmi must be an object with currentWeight, height, Gender, date_of_birth and idealBmiWeight',
  notPositive: 'Height and weight must be positive',
  heightRange: 'Height must be between 100-250 cm',
  weightRange: 'Weight must be between 30-300 kg',
  goalWeightRange: 'Goal weight must be between 30-300 kg',
  gender: 'Gender must be Male or Female',
  dateOfBirth: 'Date of birth must be a valid past date (YYYY-MM-DD)',
  idealBmiWeight: 'Ideal BMI weight must be a number',
  diet: 'Diet must be Carnivore or Ketovore',
  reminder: 'Reminder must be daily or weekly',
  note: 'Personal note must be text of at most 2000 characters',
  ingredientsList: 'Ingredients must be a list of ingredient ids',
  tooManyIngredients: (known: number) => `Choose at most ${known} ingredients`,
  passwordTooShort: 'New password must be at least 6 characters',
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
  // Only with a new e-mail address; checked here and never saved.
  'currentPassword',
] as const;

/** More ids than this are refused before anything is looked up (far above the seeded list). */
const INGREDIENTS_HARD_MAX = 500;

const BMI_FIELDS = ['currentWeight', 'height', 'Gender', 'date_of_birth', 'idealBmiWeight'] as const;

// The SPA's "{email}" pattern (src/lib/validation.ts): one @, no spaces, a dot in the domain.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const DECIMAL_PATTERN = /^\s*\d+(?:\.\d+)?\s*$/;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const within = (value: number, { min, max }: { min: number; max: number }) => value >= min && value <= max;

/** A finite number, or a decimal string ("72.5"); null otherwise. */
function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && DECIMAL_PATTERN.test(value)) return Number(value);
  return null;
}

function unknownKeysError(keys: string[], where = ''): InstanceType<typeof ValidationError> {
  const list = keys.map((key) => `"${where}${key}"`).join(', ');
  return new ValidationError(
    keys.length === 1 ? `Field ${list} cannot be updated` : `Fields ${list} cannot be updated`,
    { fields: keys.map((key) => `${where}${key}`) }
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
  if (!isPlainObject(value)) throw new ValidationError(PROFILE_MESSAGES.bmiNotAnObject);
  const unknown = Object.keys(value).filter((key) => !(BMI_FIELDS as readonly string[]).includes(key));
  if (unknown.length > 0) throw unknownKeysError(unknown, 'bmi.');

  const height = toNumber(value.height);
  const weight = toNumber(value.currentWeight);
  if (height === null || weight === null || height <= 0 || weight <= 0) throw new ValidationError(PROFILE_MESSAGES.notPositive);
  if (!within(height, PROFILE_LIMITS.heightCm)) throw new ValidationError(PROFILE_MESSAGES.heightRange);
  if (!within(weight, PROFILE_LIMITS.weightKg)) throw new ValidationError(PROFILE_MESSAGES.weightRange);

  // The component is replaced as a whole: what is not sent gets the schema default (or null).
  const bmi: Record<string, unknown> = { height, currentWeight: weight, Gender: 'Male', date_of_birth: null, idealBmiWeight: null };

  if (value.Gender !== undefined) {
    if (value.Gender !== 'Male' && value.Gender !== 'Female') throw new ValidationError(PROFILE_MESSAGES.gender);
    bmi.Gender = value.Gender;
  }
  if (value.date_of_birth !== undefined && value.date_of_birth !== null && value.date_of_birth !== '') {
    if (typeof value.date_of_birth !== 'string' || !validDateOfBirth(value.date_of_birth)) {
      throw new ValidationError(PROFILE_MESSAGES.dateOfBirth);
    }
    bmi.date_of_birth = value.date_of_birth;
  }
  if (value.idealBmiWeight !== undefined && value.idealBmiWeight !== null) {
    const ideal = toNumber(value.idealBmiWeight);
    if (ideal === null || ideal > 1000) throw new ValidationError(PROFILE_MESSAGES.idealBmiWeight);
    bmi.idealBmiWeight = String(ideal);
  }
  return bmi;
}

/**
 * Checks a PUT /api/users/:id body against SPEC §5/§7 and returns what may be saved (trimmed
 * username and e-mail, lower-cased e-mail, numbers as numbers, the whole bmi component, unique
 * ingredient ids). Throws a ValidationError with the first broken rule. Ingredient ids are only
 * checked for shape here; the route middleware checks that they exist.
 */
export function normalizeProfileUpdate(body: unknown): Record<string, unknown> {
  if (!isPlainObject(body)) throw new ValidationError(PROFILE_MESSAGES.notAnObject);
  const keys = Object.keys(body);
  const unknown = keys.filter((key) => !(PROFILE_FIELDS as readonly string[]).includes(key));
  if (unknown.length > 0) throw unknownKeysError(unknown);
  if (keys.length === 0) throw new ValidationError(PROFILE_MESSAGES.nothingToUpdate);

  const data: Record<string, unknown> = {};

  if ('username' in body) {
    const username = typeof body.username === 'string' ? body.username.trim() : '';
    const broken = usernameError(username);
    if (broken) throw new ValidationError(broken);
    data.username = username;
  }
  if ('email' in body) {
    const email = typeof body.email === 'string' ? body.email.trim() : '';
    if (!EMAIL_PATTERN.test(email) || email.length > 254) throw new ValidationError(PROFILE_MESSAGES.invalidEmail);
    data.email = email.toLowerCase();
  }
  if ('bmi' in body) {
    data.bmi = normalizeBmi(body.bmi);
  }
  if ('diet_preference' in body) {
    if (body.diet_preference !== 'Carnivore' && body.diet_preference !== 'Ketovore') throw new ValidationError(PROFILE_MESSAGES.diet);
    data.diet_preference = body.diet_preference;
  }
  if ('ingredients' in body) {
    const list = body.ingredients;
    if (!Array.isArray(list) || list.length > INGREDIENTS_HARD_MAX || !list.every((id) => Number.isSafeInteger(id) && (id as number) > 0)) {
      throw new ValidationError(PROFILE_MESSAGES.ingredientsList);
    }
    data.ingredients = [...new Set(list as number[])];
  }
  if ('goal_weight' in body) {
    const goal = body.goal_weight === null ? 0 : toNumber(body.goal_weight);
    // 0 means "no goal" (the form turns an empty field into 0).
    if (goal === null || (goal !== 0 && !within(goal, PROFILE_LIMITS.weightKg))) {
      throw new ValidationError(PROFILE_MESSAGES.goalWeightRange);
    }
    data.goal_weight = goal;
  }
  if ('goal_reminder' in body) {
    if (body.goal_reminder !== 'daily' && body.goal_reminder !== 'weekly') throw new ValidationError(PROFILE_MESSAGES.reminder);
    data.goal_reminder = body.goal_reminder;
  }
  if ('personal_goal_note' in body) {
    const note = body.personal_goal_note;
    if (note !== null && (typeof note !== 'string' || note.length > PROFILE_LIMITS.noteMax)) {
      throw new ValidationError(PROFILE_MESSAGES.note);
    }
    data.personal_goal_note = note;
  }
  if ('currentPassword' in body) {
    if (typeof body.currentPassword !== 'string') throw new ValidationError(PROFILE_MESSAGES.currentPasswordRequired);
    data.currentPassword = body.currentPassword;
  }
  return data;
}

/** Route middleware of PUT /api/users/:id (runs after auth and the role permission check). */
export const profileUpdateGuard = async (ctx: Ctx, next: Next) => {
  const user = ctx.state.user;
  // Only a logged-in member reaches this route (the role permission); anything else stays Strapi's.
  if (!user) return next();
  if (String(ctx.params.id) !== String(user.id)) {
    throw new PolicyError(PROFILE_MESSAGES.notYourself);
  }

  const data = normalizeProfileUpdate(ctx.request.body);
  const { currentPassword, ...changes } = data;

  if (typeof changes.username === 'string' && (await usernameTaken(strapi, changes.username, user.id))) {
    throw new ApplicationError(PROFILE_MESSAGES.usernameTaken);
  }

  if (Array.isArray(changes.ingredients) && changes.ingredients.length > 0) {
    const ids = changes.ingredients as number[];
    // The list is at most the known ingredients: a longer one cannot be valid, and would make a huge SQL IN.
    const knownCount = await strapi.db.query('api::ingredient.ingredient').count({});
    if (ids.length > knownCount) throw new ValidationError(PROFILE_MESSAGES.tooManyIngredients(knownCount));
    const found: { id: number }[] = await strapi.db
      .query('api::ingredient.ingredient')
      .findMany({ where: { id: { $in: ids } }, select: ['id'] });
    const known = new Set(found.map((row) => row.id));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length > 0) {
      throw new ValidationError(`Unknown ingredient ${missing.length === 1 ? 'id' : 'ids'}: ${missing.join(', ')}`);
    }
  }

  const previousEmail = await checkEmailChange(user.id, changes.email, currentPassword);

  ctx.request.body = changes;
  await next();
  if (previousEmail && ctx.status >= 200 && ctx.status < 300) notifyEmailChanged(previousEmail, changes.email as string);
};

interface StoredCredentials {
  email: string;
  username: string;
  password?: string | null;
}

/**
 * A new e-mail address needs the member's current password in the same request. Returns the old
 * address when the e-mail changes (to notify it), null otherwise.
 */
async function checkEmailChange(userId: number | string, email: unknown, currentPassword: unknown): Promise<string | null> {
  if (typeof email !== 'string') return null;
  const stored = (await strapi.db
    .query('plugin::users-permissions.user')
    .findOne({ where: { id: userId }, select: ['email', 'username', 'password'] })) as StoredCredentials | null;
  if (!stored || stored.email.toLowerCase() === email) return null;
  if (!stored.password) throw new ValidationError(PROFILE_MESSAGES.emailFixedForSocial);
  if (typeof currentPassword !== 'string' || currentPassword === '') throw new ValidationError(PROFILE_MESSAGES.currentPasswordRequired);
  const valid = await strapi.plugin('users-permissions').service('user').validatePassword(currentPassword, stored.password);
  if (!valid) throw new ValidationError(PROFILE_MESSAGES.currentPasswordInvalid);
  return stored.email;
}

/** Tells the old address that the account's e-mail changed (after the answer; failures are logged). */
function notifyEmailChanged(oldEmail: string, newEmail: string): void {
  const masked = newEmail.replace(/^(.).*?(.?)@/, (_, first: string, last: string) => `${first}***${last}@`);
  const text = [
    'Hello,',
    '',
    `The e-mail address of your Carnivo account was changed from ${oldEmail} to ${masked}.`,
    '',
    'If you made this change, there is nothing to do.',
    'If you did not, someone knows your password: reply to this e-mail or contact support at once.',
    '',
    'The Carnivo team',
  ].join('\n');
  setImmediate(() => {
    strapi
      .plugin('email')
      .service('email')
      .send({ to: oldEmail, subject: 'The e-mail address of your Carnivo account was changed', text })
      .catch((error: unknown) => strapi.log.error(`[profile] could not notify ${oldEmail} of an e-mail change: ${String(error)}`));
  });
}

/** Route middleware of POST /api/auth/change-password: SPEC §5 minimum length of the new password. */
export const changePasswordGuard = async (ctx: Ctx, next: Next) => {
  const body = ctx.request.body;
  if (isPlainObject(body) && typeof body.password === 'string' && body.password.length > 0) {
    if (body.password.length < PROFILE_LIMITS.newPasswordMin) {
      throw new ValidationError(PROFILE_MESSAGES.passwordTooShort);
    }
  }
  return next();
};

interface RouteLike {
  method: string;
  path: string;
  handler: string;
  config?: { middlewares?: unknown[]; policies?: unknown[]; [key: string]: unknown };
}

/**
 * Adds the guards to the plugin's content-API routes. Called from strapi-server.ts; throws at
 * start-up if a guarded route is missing, so a Strapi upgrade cannot silently drop a guard.
 */
export function applyProfileGuards(plugin: { routes: Record<string, unknown> }): void {
  const contentApi = plugin.routes['content-api'] as { routes: RouteLike[] } | undefined;
  const routes = contentApi?.routes ?? [];
  const guards: Record<string, (ctx: Ctx, next: Next) => Promise<unknown>> = {
    'user.update': profileUpdateGuard,
    'auth.changePassword': changePasswordGuard,
  };
  for (const [handler, guard] of Object.entries(guards)) {
    const route = routes.find((candidate) => candidate.handler === handler);
    if (!route) throw new Error(`profile-guard: users-permissions route ${handler} not found`);
    route.config = route.config ?? {};
    route.config.middlewares = [...(route.config.middlewares ?? []), guard];
  }
}
