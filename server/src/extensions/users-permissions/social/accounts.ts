import crypto from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { USERNAME_LENGTH } from '../../../contract/fieldRules';
import { IdentifierTakenError, usernameBase, usernameTaken } from '../../../security/identifiers';
import { errors } from '@strapi/utils';
import type { SocialProvider } from '../../../contract/social';
import { PROVIDER_LABELS } from './settings';
import { UID } from '../../../content-types';
import { signInRefusals } from '../../../security/sessions/sign-in';
import { readAuthSettings } from '../../../bootstrap/auth-settings';

interface UserRow {
  id: number;
  documentId: string;
  email: string;
  provider: string | null;
  blocked: boolean | null;
  [key: string]: unknown;
}

export const ACCOUNT_MESSAGES = {
  blocked: signInRefusals.blocked,
  registerClosed: 'New accounts cannot be created on this site right now.',
  emailTaken: (existingProvider: string | null) =>
    !existingProvider || existingProvider === 'local'
      ? 'Email is already taken: this e-mail address belongs to an account that logs in with a password. Log in with your e-mail and password instead.'
      : `Email is already taken: this e-mail address belongs to an account that signs in with ${
          PROVIDER_LABELS[existingProvider as SocialProvider] ?? existingProvider
        }. Use that sign-in instead.`,
} as const;

// Two simultaneous first sign-ins of one person must not create two accounts.
const pending = new Map<string, Promise<UserRow>>();

/**
 * The account of a provider-verified e-mail address, as users-permissions' own provider `connect`
 * service does it (services/providers.js):
 * - a user with this e-mail (case-insensitive) and this provider signs in;
 * - otherwise, when registration is off (advanced setting allow_register), refuse;
 * - otherwise, when another account (password or another provider) has the e-mail, refuse with
 *   "Email is already taken" (one account per address, always: the database's unique index);
 * - otherwise create the user: provider, confirmed, default role, a unique username from the
 *   e-mail's local part.
 * Blocked users are refused. The in-process map joins simultaneous sign-ins on one instance; across
 * instances the unique indexes decide, and the loser looks again (bounded).
 */
export function findOrCreateSocialUser(strapi: Core.Strapi, provider: SocialProvider, email: string): Promise<UserRow> {
  const key = `${provider}:${email.toLowerCase()}`;
  const running = pending.get(key);
  if (running) return running;
  const work = resolveUserRetrying(strapi, provider, email.toLowerCase()).finally(() => pending.delete(key));
  pending.set(key, work);
  return work;
}

const RACE_RETRIES = 3;

/** resolveUser, again when another instance created a user with this e-mail or username meanwhile. */
async function resolveUserRetrying(strapi: Core.Strapi, provider: SocialProvider, email: string): Promise<UserRow> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await resolveUser(strapi, provider, email);
    } catch (error) {
      if (!(error instanceof IdentifierTakenError) || attempt >= RACE_RETRIES) throw error;
    }
  }
}

async function resolveUser(strapi: Core.Strapi, provider: SocialProvider, email: string): Promise<UserRow> {
  const users = strapi.db.query(UID.user);
  const sameEmail = (await users.findMany({ where: { email: { $eqi: email } }, orderBy: { id: 'asc' } })) as UserRow[];
  const own = sameEmail.find((user) => user.provider === provider);
  if (own) {
    if (own.blocked) throw new errors.ApplicationError(ACCOUNT_MESSAGES.blocked);
    return own;
  }

  const advanced = await readAuthSettings(strapi);
  if (advanced.allow_register === false) throw new errors.ApplicationError(ACCOUNT_MESSAGES.registerClosed);
  if (sameEmail.length > 0) {
    throw new errors.ApplicationError(ACCOUNT_MESSAGES.emailTaken(sameEmail[0].provider));
  }

  const role = await strapi.db.query(UID.role).findOne({ where: { type: advanced.default_role || 'authenticated' } });
  if (!role) throw new errors.ApplicationError('The default role for new accounts is missing.');

  const created = (await strapi
    .plugin('users-permissions')
    .service('user')
    .add({
      username: await uniqueUsername(strapi, email),
      email,
      provider,
      confirmed: true,
      blocked: false,
      role: role.id,
    })) as UserRow;
  strapi.log.info(`[social] created ${provider} account #${created.id}`);
  return created;
}

/** The e-mail's local part, cleaned; a numeric suffix when it is too short or already taken. */
async function uniqueUsername(strapi: Core.Strapi, email: string): Promise<string> {
  // Room for a 4-digit or "-xxxxxxxx" suffix within the 30-character limit.
  const base = usernameBase(email.toLowerCase(), USERNAME_LENGTH.max - 9);
  const taken = (candidate: string) => usernameTaken(strapi, candidate);

  if (!(await taken(base))) return base;
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const candidate = `${base}${crypto.randomInt(1000, 10000)}`;
    if (!(await taken(candidate))) return candidate;
  }
  return `${base}-${crypto.randomUUID().slice(0, 8)}`;
}
