import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { UID } from '../../../content-types';
import { publicUrl } from '../../../public-url';
import { PASSKEY_CHALLENGE_TTL_MS, passkeyMessages, type PasskeySummary } from '../../../contract/passkeys';
import { notifyOwner } from '../../../mail/notify-owner';

const { ValidationError, NotFoundError } = errors;

type Purpose = 'registration' | 'authentication';

interface PasskeyRow {
  id: number;
  name: string;
  credential_id: string;
  public_key: string;
  counter: number | string;
  transports: AuthenticatorTransport[] | null;
  createdAt: string | Date;
  last_used_at: string | Date | null;
}

const toSummary = (row: PasskeyRow): PasskeySummary => ({
  id: row.id,
  name: row.name,
  createdAt: new Date(row.createdAt).toISOString(),
  lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
});

/** The relying party is the site itself: its host name is the rp id, its origin the only accepted origin. */
export const relyingParty = (env: NodeJS.ProcessEnv = process.env) => {
  const url = new URL(publicUrl(env));
  return { rpID: url.hostname, origin: url.origin, rpName: 'Carnivo' };
};

/** Longest credential id accepted (authenticators use at most 1023 bytes: 1364 base64url characters). */
const MAX_CREDENTIAL_ID_LENGTH = 1400;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The challenge the browser signed, read from clientDataJSON; null when the response is not shaped like one. */
function signedChallenge(credential: unknown): string | null {
  if (!isRecord(credential) || !isRecord(credential.response) || typeof credential.response.clientDataJSON !== 'string') return null;
  if (typeof credential.id !== 'string' || credential.id.length === 0 || credential.id.length > MAX_CREDENTIAL_ID_LENGTH) return null;
  try {
    const clientData: unknown = JSON.parse(isoBase64URL.toUTF8String(credential.response.clientDataJSON));
    return isRecord(clientData) && typeof clientData.challenge === 'string' && clientData.challenge.length <= 200
      ? clientData.challenge
      : null;
  } catch {
    return null;
  }
}

/** A browser-ish name for a passkey the member did not name ("Chrome on Android"). */
export function derivedName(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrome\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : null;
  const system = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Mac OS X/.test(ua)
        ? 'macOS'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Linux|CrOS/.test(ua)
            ? 'Linux'
            : null;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Passkey';
}

/** Who a verified passkey assertion proves, and by which passkey (its session checks the passkey still exists). */
export interface PasskeyAssertion {
  userId: number;
  passkeyId: number;
}

export interface PasskeyService {
  registrationOptions(userId: number): Promise<PublicKeyCredentialCreationOptionsJSON>;
  register(userId: number, credential: unknown, name: string, userAgent?: string): Promise<PasskeySummary>;
  list(userId: number): Promise<PasskeySummary[]>;
  remove(userId: number, id: number): Promise<void>;
  removeAll(userId: number): Promise<number>;
  authenticationOptions(): Promise<PublicKeyCredentialRequestOptionsJSON>;
  /** Verifies a sign-in and answers the member's id and the passkey's; the counter and last use are recorded. */
  authenticate(credential: unknown): Promise<PasskeyAssertion>;
}

/** Passkeys (docs/security.md#passkeys). Routes: routes/passkey.ts. */
export default ({ strapi }: { strapi: Core.Strapi }): PasskeyService => {
  const passkeys = () => strapi.db.query(UID.passkey);
  const challenges = () => strapi.db.query(UID.passkeyChallenge);

  async function storeChallenge(challenge: string, purpose: Purpose, memberId: number | null) {
    // Expired challenges are dropped as new ones are made: the table stays small without a job.
    await challenges().deleteMany({ where: { expires_at: { $lt: Date.now() } } });
    await challenges().create({ data: { challenge, purpose, member_id: memberId, expires_at: Date.now() + PASSKEY_CHALLENGE_TTL_MS } });
  }

  /**
   * Takes the challenge out of the store: only one request (on any instance) deletes the row, so a
   * replayed or concurrent answer finds nothing. A registration challenge belongs to one member.
   */
  async function consumeChallenge(challenge: string | null, purpose: Purpose, memberId: number | null): Promise<string> {
    if (challenge === null) throw new ValidationError(passkeyMessages.credentialMissing);
    const { count } = (await challenges().deleteMany({
      where: { challenge, purpose, ...(memberId === null ? {} : { member_id: memberId }), expires_at: { $gte: Date.now() } },
    })) as { count: number };
    if (count !== 1) throw new ValidationError(passkeyMessages.challengeExpired);
    return challenge;
  }

  const own = async (userId: number) =>
    (await passkeys().findMany({ where: { user: { id: userId } }, orderBy: { id: 'asc' } })) as PasskeyRow[];

  return {
    async registrationOptions(userId) {
      const user = (await strapi.db.query(UID.user).findOne({ where: { id: userId }, select: ['id', 'username', 'email'] })) as {
        id: number;
        username: string;
        email: string;
      } | null;
      if (!user) throw new NotFoundError('Account not found');
      const { rpID, rpName } = relyingParty();
      const options = await generateRegistrationOptions({
        rpName,
        rpID,
        userName: user.email,
        userDisplayName: user.username,
        // A stable handle per member, so re-registering on one authenticator replaces its old passkey there.
        userID: new TextEncoder().encode(`carnivo-member-${user.id}`),
        timeout: PASSKEY_CHALLENGE_TTL_MS,
        attestationType: 'none',
        excludeCredentials: (await own(userId)).map((row) => ({ id: row.credential_id, transports: row.transports ?? undefined })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      });
      await storeChallenge(options.challenge, 'registration', userId);
      return options;
    },

    async register(userId, credential, name, userAgent) {
      const expectedChallenge = await consumeChallenge(signedChallenge(credential), 'registration', userId);
      const { rpID, origin } = relyingParty();
      let verification;
      try {
        verification = await verifyRegistrationResponse({
          response: credential as RegistrationResponseJSON,
          expectedChallenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: true,
        });
      } catch (error) {
        strapi.log.info(`[passkeys] registration refused for user ${userId}: ${String(error)}`);
        throw new ValidationError(passkeyMessages.registrationFailed);
      }
      if (!verification.verified) throw new ValidationError(passkeyMessages.registrationFailed);
      const { credential: made } = verification.registrationInfo;
      if (await passkeys().findOne({ where: { credential_id: made.id }, select: ['id'] })) {
        throw new ValidationError(passkeyMessages.alreadyRegistered);
      }
      try {
        const row = (await passkeys().create({
          data: {
            user: userId,
            credential_id: made.id,
            public_key: isoBase64URL.fromBuffer(made.publicKey),
            counter: made.counter,
            transports: made.transports ?? [],
            name: name || derivedName(userAgent),
          },
        })) as PasskeyRow;
        await notifyOwner(strapi, userId, 'passkey-added');
        return toSummary(row);
      } catch (error) {
        // Two registrations of one credential racing: the unique index lets one in.
        if (await passkeys().findOne({ where: { credential_id: made.id }, select: ['id'] })) {
          throw new ValidationError(passkeyMessages.alreadyRegistered);
        }
        throw error;
      }
    },

    async list(userId) {
      return (await own(userId)).map(toSummary);
    },

    async remove(userId, id) {
      // Found through the owner first: a delete cannot filter on the relation.
      const mine = (await passkeys().findOne({ where: { id, user: { id: userId } }, select: ['id'] })) as { id: number } | null;
      if (!mine) throw new NotFoundError(passkeyMessages.notFound);
      await passkeys().delete({ where: { id: mine.id } });
      await notifyOwner(strapi, userId, 'passkey-removed');
    },

    async removeAll(userId) {
      const ids = (await own(userId)).map((row) => row.id);
      if (ids.length > 0) await passkeys().deleteMany({ where: { id: { $in: ids } } });
      return ids.length;
    },

    async authenticationOptions() {
      const { rpID } = relyingParty();
      // No allowCredentials: the authenticator offers the site's discoverable passkeys (and autofill can list them).
      const options = await generateAuthenticationOptions({ rpID, userVerification: 'required', timeout: PASSKEY_CHALLENGE_TTL_MS });
      await storeChallenge(options.challenge, 'authentication', null);
      return options;
    },

    async authenticate(credential) {
      const expectedChallenge = await consumeChallenge(signedChallenge(credential), 'authentication', null);
      const response = credential as AuthenticationResponseJSON;
      const row = (await passkeys().findOne({ where: { credential_id: response.id }, populate: ['user'] })) as
        | (PasskeyRow & { user: { id: number } | null })
        | null;
      if (!row?.user) throw new ValidationError(passkeyMessages.unknownPasskey);
      const { rpID, origin } = relyingParty();
      const storedCounter = Number(row.counter);
      let verification;
      try {
        verification = await verifyAuthenticationResponse({
          response,
          expectedChallenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: true,
          credential: {
            id: row.credential_id,
            publicKey: isoBase64URL.toBuffer(row.public_key),
            counter: storedCounter,
            transports: row.transports ?? undefined,
          },
        });
      } catch (error) {
        // A counter that did not move forward lands here too (a cloned authenticator).
        strapi.log.warn(`[passkeys] sign-in refused for passkey ${row.id} of user ${row.user.id}: ${String(error)}`);
        throw new ValidationError(passkeyMessages.signInFailed);
      }
      if (!verification.verified) throw new ValidationError(passkeyMessages.signInFailed);
      // Only if nobody moved the counter meanwhile: two sign-ins with one counter value cannot both pass.
      const { count } = (await passkeys().updateMany({
        where: { id: row.id, counter: row.counter },
        data: { counter: verification.authenticationInfo.newCounter, last_used_at: new Date() },
      })) as { count: number };
      if (count !== 1) throw new ValidationError(passkeyMessages.signInFailed);
      return { userId: row.user.id, passkeyId: row.id };
    },
  };
};
