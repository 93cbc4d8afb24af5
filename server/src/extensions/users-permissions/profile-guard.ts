import { errors } from '@strapi/utils';
import { changePasswordBodyError, profileMessages } from '../../contract/profileRules';
import { cannotBeUpdated, profileUpdateBody, unknownProfileKeys } from '../../contract/profileUpdate';
import { parseBody } from '../../contract/schema';
import type { NextMiddleware, RequestContext } from '../../request-context';
import { TAKEN_MESSAGES, usernameTaken } from '../../security/identifiers';
import { UID } from '../../content-types';
import { memberOnlyAuth } from '../../api/account/auth/bearer-required';
import { ONLY_YOURSELF, STEP_UP } from '../../route-table';
import { USERS_PERMISSIONS_ACCESS } from './route-access';
import { utcDate } from '../../contract/progress';
import type { WeightEntryService } from '../../api/weight-entry/services/weight-entry';
import type { PendingEmailChange } from '../../contract/emailChange';
import type { EmailChangeService } from '../../api/account/services/email-change';
import { guardedGuess } from '../../security/guess-budget';
import { refuse } from '../../security/auth-rate-limit';
import { currentSessionId } from '../../security/sessions/tokens';
import { requireRecentStepUp } from '../../security/step-up';

/**
 * Route wiring of the guards of the member-facing users-permissions routes (see docs/profile.md);
 * the rules and their messages are the contract's (src/contract/profileRules.ts, shared with the SPA's forms, and
 * src/contract/profileUpdate.ts, the PUT body as a whole):
 *
 * - PUT /api/users/:id (user.update): a member updates only themselves (the route's policy,
 *   src/policies/only-yourself.ts), and only the fields of the profile sections (SPEC §7) under the
 *   same rules as the forms (SPEC §5). A new e-mail address needs the current password in the same
 *   request (a stolen token alone cannot take the account over through a reset) and must be free; it is not saved but stored as pending, and the link that
 *   makes the change is mailed to it (api::account.email-change; the answer's `emailChange` says so).
 *   The plugin's own controller then saves the other fields (save through the Document Service; a
 *   racing duplicate username is refused by the database's unique index, src/security/identifiers.ts).
 *   A changed bmi.currentWeight also records today's (UTC) weight entry, in the same transaction; a bmi
 *   sent without height and weight keeps the saved ones.
 * - POST /api/auth/change-password: the new password needs at least 6 characters (SPEC §5, §9), and
 *   the current password is counted before it is checked (src/security/guess-budget.ts); Strapi itself
 *   then checks the current password and the confirmation.
 *
 * Everything else about these routes stays Strapi's: auth, role permission, rate limit, controller.
 */

const { ValidationError, ApplicationError } = errors;

/** The body of PUT /api/users/:id as may be saved, or a ValidationError with the first broken rule. */
export function normalizeProfileUpdate(body: unknown): Record<string, unknown> {
  const parsed = parseBody(profileUpdateBody, body);
  if (parsed.ok) return parsed.value;
  // Keys it does not take are named in the details too, when they are what the message refuses.
  const fields = unknownProfileKeys(body);
  throw new ValidationError(parsed.message, parsed.message === cannotBeUpdated(fields) ? { fields } : undefined);
}

/** Route middleware of PUT /api/users/:id (runs after auth, the role permission check and global::only-yourself). */
export const profileUpdateGuard = async (ctx: RequestContext, next: NextMiddleware) => {
  const user = ctx.state.user;
  // Only a logged-in member reaches this route (the role permission); anything else stays Strapi's.
  if (!user) return next();

  const data = normalizeProfileUpdate(ctx.request.body);
  const { currentPassword, ...changes } = data;

  if (typeof changes.username === 'string' && (await usernameTaken(strapi, changes.username, user.id))) {
    throw new ApplicationError(profileMessages.usernameTaken);
  }

  if (Array.isArray(changes.ingredients) && changes.ingredients.length > 0) {
    const ids = changes.ingredients as number[];
    // The list is at most the known ingredients: a longer one cannot be valid, and would make a huge SQL IN.
    const ingredients = strapi.documents(UID.ingredient);
    const knownCount = await ingredients.count({});
    if (ids.length > knownCount) throw new ValidationError(profileMessages.tooManyIngredients(knownCount));
    const found = await ingredients.findMany({ filters: { id: { $in: ids } }, fields: ['id'] });
    const known = new Set(found.map((row) => row.id));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length > 0) {
      throw new ValidationError(profileMessages.unknownIngredients(missing));
    }
  }

  // A new address waits for its link (docs/security.md#verified-e-mail-change): the rest saves at once.
  const newEmail = await checkEmailChange(ctx, user.id, changes.email, currentPassword, currentSessionId(ctx));
  delete changes.email;
  // Counted before anything is written or mailed: a member cannot make the site mail an address over and over.
  const refusal = newEmail
    ? await (strapi.service('api::account.email-change') as unknown as EmailChangeService).reserve(user.id, newEmail)
    : null;
  if (refusal) refuse(ctx, refusal.limit, refusal.retryAfterSec, refusal.message);

  ctx.request.body = changes;
  const bmi = changes.bmi as { height?: number; currentWeight?: number } | undefined;
  const weight = bmi?.currentWeight;
  // A bmi without height and weight changes neither (issue 21): the replaced component keeps the saved ones.
  if (bmi && weight === undefined) Object.assign(bmi, await storedMeasures(user.id));
  const ok = () => ctx.status >= 200 && ctx.status < 300;
  let emailChange: PendingEmailChange | null = null;
  if (typeof weight === 'number' || newEmail) {
    // A new current weight is also today's entry of the weight history (issue 12), and a new e-mail
    // address is stored as pending with both its e-mails queued: each with the rest of the update, or none.
    await strapi.db
      .transaction(async () => {
        const before = typeof weight === 'number' ? (await storedMeasures(user.id)).currentWeight : null;
        if (newEmail)
          emailChange = await (strapi.service('api::account.email-change') as unknown as EmailChangeService).request(user.id, newEmail);
        await next();
        if (!ok()) throw new RolledBack();
        if (typeof weight === 'number' && before !== weight) {
          await (strapi.service('api::weight-entry.weight-entry') as unknown as WeightEntryService).record(
            user.id,
            utcDate(new Date()),
            weight,
          );
        }
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
  } else {
    await next();
  }
  if (emailChange && ok()) ctx.body = { ...(ctx.body as Record<string, unknown>), emailChange };
};

/** Undoes the transaction when the plugin's controller answered with an error (its answer stays). */
class RolledBack extends Error {}

/** The member's saved height (cm) and current weight (kg), each null when not saved. */
async function storedMeasures(userId: number): Promise<{ height: number | null; currentWeight: number | null }> {
  const row = (await strapi.db.query(UID.user).findOne({
    where: { id: userId },
    select: ['id'],
    populate: { bmi: { select: ['height', 'currentWeight'] } },
  })) as { bmi?: { height: number | string | null; currentWeight: number | string | null } | null } | null;
  const asNumber = (value: number | string | null | undefined) => (value == null ? null : Number(value));
  return { height: asNumber(row?.bmi?.height), currentWeight: asNumber(row?.bmi?.currentWeight) };
}

interface StoredCredentials {
  email: string;
  username: string;
  password?: string | null;
}

/**
 * A new e-mail address needs the member's current password in the same request, and must be free.
 * Returns the new address when the e-mail changes, null otherwise.
 */
async function checkEmailChange(
  ctx: RequestContext,
  userId: number | string,
  email: unknown,
  currentPassword: unknown,
  sid: string | null,
): Promise<string | null> {
  if (typeof email !== 'string') return null;
  const stored = (await strapi.db
    .query(UID.user)
    .findOne({ where: { id: userId }, select: ['email', 'username', 'password'] })) as StoredCredentials | null;
  if (!stored || stored.email.toLowerCase() === email) return null;
  if (!stored.password) throw new ValidationError(profileMessages.emailFixedForSocial);
  // Changing the e-mail needs a recent step-up on this session (docs/security.md#step-up).
  await requireRecentStepUp(strapi, Number(userId), sid);
  if (typeof currentPassword !== 'string' || currentPassword === '') throw new ValidationError(profileMessages.currentPasswordRequired);
  // Counted before it is checked, under the account's one password budget (src/security/guess-budget.ts).
  if (!(await guardedGuess(strapi, ctx, Number(userId), { password: currentPassword })))
    throw new ValidationError(profileMessages.currentPasswordInvalid);
  // Before users-permissions' own check, so the answer is the same as when the index refuses a race.
  const holder = await strapi.db.query(UID.user).findOne({ where: { email: { $eqi: email } }, select: ['id'] });
  if (holder && holder.id !== Number(userId)) throw new ApplicationError(TAKEN_MESSAGES.email);
  return email;
}

/**
 * Route middleware of POST /api/auth/change-password: SPEC §5 minimum length of the new password, and
 * the current password counted before it is checked, under the account's one password budget
 * (src/security/guess-budget.ts); Strapi's controller then checks it again (only a right one gets there).
 */
export const changePasswordGuard = async (ctx: RequestContext, next: NextMiddleware) => {
  const body: unknown = ctx.request.body;
  const broken = changePasswordBodyError(body);
  if (broken) throw new ValidationError(broken);
  const currentPassword = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).currentPassword : undefined;
  // Anything but a text is Strapi's validation error: nothing to compare.
  if (ctx.state.user && typeof currentPassword === 'string' && currentPassword !== '') {
    if (!(await guardedGuess(strapi, ctx, Number(ctx.state.user.id), { password: currentPassword }))) {
      throw new ValidationError(profileMessages.currentPasswordInvalid);
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
  const configOf = (handler: string) => {
    const route = routes.find((candidate) => candidate.handler === handler);
    if (!route) throw new Error(`profile-guard: users-permissions route ${handler} not found`);
    route.config = route.config ?? {};
    return route.config;
  };
  // Idempotent: a second Strapi in one process (tests) extends the same route objects again.
  const guards: Record<string, (ctx: RequestContext, next: NextMiddleware) => Promise<unknown>> = {
    'user.update': profileUpdateGuard,
    'auth.changePassword': changePasswordGuard,
  };
  for (const [handler, guard] of Object.entries(guards)) {
    const config = configOf(handler);
    config.middlewares = [...(config.middlewares ?? []).filter((existing) => existing !== guard), guard];
  }
  // The route policies: a member updates only themselves; changing the password needs a recent
  // step-up on this session (docs/security.md#step-up).
  const policies: Record<string, readonly string[]> = { 'user.update': [ONLY_YOURSELF], 'auth.changePassword': STEP_UP };
  for (const [handler, names] of Object.entries(policies)) {
    const config = configOf(handler);
    config.policies = [...(config.policies ?? []).filter((name) => !names.includes(name as string)), ...names];
  }
  // SPEC §6: a profile call without a token is answered 401 'Not authenticated', not the public role's 403.
  for (const handler of USERS_PERMISSIONS_ACCESS.member) configOf(handler).auth = memberOnlyAuth();
}
