import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { UID } from '../../../content-types';
import { parseBody } from '../../../contract/schema';
import { validBody } from '../../../validated-body';
import {
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  RECOVERY_CODE_PATTERN,
  TOTP_CODE_PATTERN,
  givenCode,
  normaliseCode,
  twoFactorDisableBody,
  twoFactorEnableBody,
  twoFactorLoginBody,
  twoFactorMessages as messages,
  twoFactorRegenerateBody,
  type TwoFactorSetupResponse,
  type TwoFactorStatus,
} from '../../../contract/twoFactor';
import { countedGuess, refuseUncountable, type GuessPolicy, type Subject } from '../../../security/login-throttle';
import { passwordGuess } from '../../../security/guess-budget';
import { revokedSince } from '../../../security/sessions/records';
import { currentCredentialStamp } from '../../../security/sessions/credentials';
import type { SessionProof } from '../../../security/sessions/tokens';
import {
  decryptSecret,
  encryptSecret,
  keyedHash,
  keyedHashes,
  newRecoveryCode,
  newTicket,
  serverKeys,
} from '../../../security/two-factor-crypto';
import { recordRateLimitRefusal } from '../../../operations/metrics';
import { notifyOwner } from '../../../mail/notify-owner';

/** How long a password log-in waits for its code. */
export const TICKET_TTL_MS = 5 * 60 * 1000;
/** Wrong codes one ticket takes before it is void, counted per ticket in its row before each code is checked. */
export const TICKET_MAX_FAILURES = 5;
/** Steps either side of now a code may come from: a phone's clock a little off still works. */
const WINDOW = 1;
const ISSUER = 'Carnivo';

interface EnrolmentRow {
  id: number;
  user_id: number;
  secret: string | null;
  pending_secret: string | null;
  enabled_at: string | number | null;
  last_step: string | number | null;
}

interface TicketRow {
  id: number;
  user_id: number;
  expires_at: string | number;
  used_at: string | number | null;
  failures: number | null;
  /** The credential stamp of the password the log-in checked (security/sessions/credentials.ts); null on older tickets. */
  credentials: string | null;
}

/** A completed second step: whose log-in it was, and what its password proved. */
export interface CompletedLogIn {
  userId: number;
  proof: SessionProof;
}

/**
 * Codes count per account under the log-in throttle's rules (src/security/login-throttle.ts: counted
 * before each check, shared through Redis, locked after 10 wrong within 15 minutes, the lock doubling),
 * in a key of their own, on every route that takes a code: a password reset clears the password's
 * count, never this one. While Redis cannot be reached no code is checked (fails closed, 429).
 */
export const codeSubject = (userId: number): Subject => ({ key: `two-factor:${userId}`, known: true });

const totpOf = (secret: string, label = '') =>
  new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(secret), digits: TOTP_DIGITS, period: 30 });

/** The ticket is unknown, used, expired, burnt or revoked: answered 401 (the member logs in again). */
export class TicketVoid extends Error {
  constructor(message: string = messages.ticketExpired) {
    super(message);
  }
}

type RefusableCtx = { set(name: string, value: string): void };

/** A field of a request body; a body that is not an object has none (its rules refuse it as missing). */
const fieldOf = (body: unknown, key: string): unknown =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)[key] : undefined;

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const enrolments = () => strapi.db.query(UID.twoFactor);
  const recoveryCodes = () => strapi.db.query(UID.twoFactorRecoveryCode);
  const tickets = () => strapi.db.query(UID.twoFactorTicket);
  const keys = () => serverKeys(process.env.ENCRYPTION_KEY, (strapi.config.get('server.app.keys') as string[] | undefined) ?? []);

  const enrolmentOf = (userId: number) => enrolments().findOne({ where: { user_id: userId } }) as Promise<EnrolmentRow | null>;
  const isOn = (row: EnrolmentRow | null): row is EnrolmentRow & { secret: string } => Boolean(row?.enabled_at && row.secret);

  const codePolicy = (ctx: RefusableCtx, userId: number): GuessPolicy => ({
    refuseLocked: (locked) => {
      recordRateLimitRefusal('two-factor-lock');
      ctx.set('Retry-After', String(locked));
      throw new errors.RateLimitError(messages.locked(locked), { retryAfter: locked });
    },
    whenUncountable: 'closed',
    refuseUncountable: () => refuseUncountable(ctx),
    onLock: (seconds) => strapi.log.warn(`[two-factor] user ${userId}: codes locked for ${seconds} s after repeated wrong codes`),
  });

  /** Runs `check` (true: the code is right) as one attempt of the member's code budget, counted first. */
  const countedCode = (ctx: RefusableCtx, userId: number, check: () => Promise<boolean>) =>
    countedGuess(codeSubject(userId), codePolicy(ctx, userId), check, (outcome) =>
      outcome.ok ? (outcome.value ? 'right' : 'wrong') : 'unchecked',
    );

  /** The step a code from this secret is for, or null; the step is not yet spent. */
  const matchingStep = (secret: string, code: string): number | null => {
    const delta = totpOf(secret).validate({ token: code, window: WINDOW });
    return delta === null ? null : TOTP.counter() + delta;
  };

  /** Spends the step: a code is good once, and no earlier code is good after it (replay). */
  async function spendStep(rowId: number, step: number): Promise<boolean> {
    const { count } = await enrolments().updateMany({
      where: { id: rowId, $or: [{ last_step: { $null: true } }, { last_step: { $lt: step } }] },
      data: { last_step: step },
    });
    return count === 1;
  }

  async function spendRecoveryCode(userId: number, code: string): Promise<boolean> {
    const { count } = await recoveryCodes().updateMany({
      where: { user_id: userId, code_hash: { $in: keyedHashes(code, keys()) }, used_at: { $null: true } },
      data: { used_at: Date.now() },
    });
    return count === 1;
  }

  const codeGiven = (given: unknown): given is string => parseBody(givenCode, given).ok;

  /** Whether `given` is the member's second factor (an app code, or a recovery code where allowed, spent if right); counted first. */
  async function checkCode(ctx: RefusableCtx, userId: number, given: string, { recovery }: { recovery: boolean }): Promise<boolean> {
    return countedCode(ctx, userId, async () => {
      const code = normaliseCode(given);
      const row = await enrolmentOf(userId);
      if (isOn(row) && TOTP_CODE_PATTERN.test(given.trim())) {
        const secret = decryptSecret(row.secret, userId, keys());
        const step = secret === null ? null : matchingStep(secret, code);
        return step !== null && (await spendStep(row.id, step));
      }
      if (isOn(row) && recovery && RECOVERY_CODE_PATTERN.test(given.trim())) return spendRecoveryCode(userId, code);
      return false;
    });
  }

  /** Checks the member's second factor under its budget (a code the body's rule let through): a wrong one is answered wrongCode. */
  async function verify(ctx: RefusableCtx, userId: number, given: string, options: { recovery: boolean }): Promise<void> {
    if (!(await checkCode(ctx, userId, given, options))) throw new errors.ValidationError(messages.wrongCode);
  }

  async function newRecoveryCodes(userId: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const [key] = keys();
    await recoveryCodes().deleteMany({ where: { user_id: userId } });
    for (const code of codes) await recoveryCodes().create({ data: { user_id: userId, code_hash: keyedHash(normaliseCode(code), key) } });
    return codes;
  }

  const isEnabled = async (userId: number) => isOn(await enrolmentOf(userId));

  /**
   * Takes one of the ticket's TICKET_MAX_FAILURES attempts before its code is checked: one conditional
   * UPDATE, so concurrent codes on one ticket (on any instance) get at most that many checks. False: none left.
   */
  async function reserveTicketAttempt(ticketId: number, now: number): Promise<boolean> {
    const { tableName } = strapi.db.metadata.get(UID.twoFactorTicket);
    const knex = strapi.db.connection;
    const changed = await knex(tableName)
      .where('id', ticketId)
      .whereNull('used_at')
      .where('expires_at', '>', now)
      .where(knex.raw('COALESCE(failures, 0)'), '<', TICKET_MAX_FAILURES)
      .update({ failures: knex.raw('COALESCE(failures, 0) + 1') });
    return Number(changed) === 1;
  }

  /** Gives the reserved attempt back when no code was checked (the code budget locked, Redis down): only a checked code uses one. */
  async function returnTicketAttempt(ticketId: number): Promise<void> {
    const { tableName } = strapi.db.metadata.get(UID.twoFactorTicket);
    const knex = strapi.db.connection;
    await knex(tableName)
      .where('id', ticketId)
      .where('failures', '>', 0)
      .update({ failures: knex.raw('failures - 1') });
  }

  async function removeEverything(userId: number): Promise<void> {
    await recoveryCodes().deleteMany({ where: { user_id: userId } });
    await tickets().deleteMany({ where: { user_id: userId } });
    await enrolments().deleteMany({ where: { user_id: userId } });
  }

  return {
    async status(userId: number): Promise<TwoFactorStatus> {
      const enabled = isOn(await enrolmentOf(userId));
      const recoveryCodesLeft = enabled ? await recoveryCodes().count({ where: { user_id: userId, used_at: { $null: true } } }) : 0;
      return { enabled, recoveryCodesLeft };
    },

    isEnabled,

    /** A new pending secret (replacing any earlier pending one); the current state is unchanged until enable. */
    async setup(userId: number): Promise<TwoFactorSetupResponse> {
      const user = (await strapi.db
        .query(UID.user)
        .findOne({ where: { id: userId }, select: ['id', 'email', 'password', 'provider'] })) as {
        email: string;
        password: string | null;
        provider: string | null;
      } | null;
      if (!user) throw new errors.NotFoundError('Account not found');
      // Turning it off needs the password: an account without one could never turn it off.
      if (!user.password || (user.provider ?? 'local') !== 'local') throw new errors.ApplicationError(messages.passwordNeeded);
      const row = await enrolmentOf(userId);
      if (isOn(row)) throw new errors.ApplicationError(messages.alreadyEnabled);

      const secret = new Secret({ size: 20 }).base32;
      const uri = totpOf(secret, user.email).toString();
      const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      const pending_secret = encryptSecret(secret, userId, keys());
      if (row) await enrolments().update({ where: { id: row.id }, data: { pending_secret } });
      else {
        await enrolments()
          .create({ data: { user_id: userId, pending_secret } })
          // Two set-ups at once: the other made the row; the later secret wins, as if sent one after the other.
          .catch(() => enrolments().update({ where: { user_id: userId }, data: { pending_secret } }));
      }
      return { secret, uri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
    },

    /** Confirms the pending secret with a first code (POST /api/two-factor/enable's body): on, with ten new recovery codes. */
    async enable(ctx: RefusableCtx, userId: number, body: unknown): Promise<string[]> {
      const { code: given } = validBody(twoFactorEnableBody, body);
      const row = await enrolmentOf(userId);
      if (isOn(row)) throw new errors.ApplicationError(messages.alreadyEnabled);
      const pending = row?.pending_secret ? decryptSecret(row.pending_secret, userId, keys()) : null;
      if (!row || !pending) throw new errors.ApplicationError(messages.noSetup);
      let step: number | null = null;
      const right = await countedCode(ctx, userId, async () => (step = matchingStep(pending, normaliseCode(given))) !== null);
      if (!right || step === null) throw new errors.ValidationError(messages.wrongCode);
      return strapi.db.transaction(async () => {
        // Only the request that moves this exact pending secret in turns it on.
        const { count } = await enrolments().updateMany({
          where: { id: row.id, pending_secret: row.pending_secret, enabled_at: { $null: true } },
          data: { secret: row.pending_secret, pending_secret: null, enabled_at: Date.now(), last_step: step },
        });
        if (count !== 1) throw new errors.ApplicationError(messages.alreadyEnabled);
        await notifyOwner(strapi, userId, 'two-factor-on');
        return newRecoveryCodes(userId);
      });
    },

    /** New recovery codes for a code (an app code or a recovery code); the old ones stop working. */
    async regenerate(ctx: RefusableCtx, userId: number, body: unknown): Promise<string[]> {
      if (!(await isEnabled(userId))) throw new errors.ApplicationError(messages.notEnabled);
      const { code } = validBody(twoFactorRegenerateBody, body);
      await verify(ctx, userId, code, { recovery: true });
      const codes = await strapi.db.transaction(() => newRecoveryCodes(userId));
      await notifyOwner(strapi, userId, 'recovery-codes');
      return codes;
    },

    /** Off, with the password and a code (an app code or a recovery code): the secret, codes and tickets go. */
    async disable(ctx: RefusableCtx, userId: number, body: unknown): Promise<void> {
      if (!(await isEnabled(userId))) throw new errors.ApplicationError(messages.notEnabled);
      // Field by field: a wrong password is answered (and counted) as such whatever the code.
      const rules = twoFactorDisableBody.entries;
      const password = validBody(rules.password, fieldOf(body, 'password'));
      // A stolen session guessing the password draws on the account's one password budget, the log-in's.
      if (!(await passwordGuess(strapi, ctx, userId, password))) throw new errors.ValidationError(messages.wrongPassword);
      await verify(ctx, userId, validBody(rules.code, fieldOf(body, 'code')), { recovery: true });
      await strapi.db.transaction(() => removeEverything(userId));
      await notifyOwner(strapi, userId, 'two-factor-off');
      strapi.log.info(`[two-factor] user ${userId}: two-factor authentication turned off`);
    },

    /**
     * After the password: a ticket for the second step, bound to the member and to the password it proved,
     * good once within TICKET_TTL_MS.
     */
    async issueTicket(userId: number, proof: SessionProof = {}): Promise<string> {
      const ticket = newTicket();
      const now = Date.now();
      // Expired tickets of anyone go now and then; nothing else reads them.
      await tickets().deleteMany({ where: { expires_at: { $lt: now - TICKET_TTL_MS } } });
      await tickets().create({
        data: {
          ticket_hash: keyedHash(ticket, keys()[0]),
          user_id: userId,
          expires_at: now + TICKET_TTL_MS,
          failures: 0,
          credentials: proof.credentials ?? null,
        },
      });
      return ticket;
    },

    /**
     * The second step of a password log-in: the member whose ticket it is, once the code is right.
     * A ticket is void once used, expired, after TICKET_MAX_FAILURES wrong codes, or when the
     * member's sessions were revoked after it was issued, or once the password it proved is replaced (a
     * reset or change): checked here before a code is spent, and again when the session's row is written.
     */
    async completeLogIn(ctx: RefusableCtx, body: unknown): Promise<CompletedLogIn> {
      // Field by field: a void ticket (401) is answered before the code is looked at.
      const rules = twoFactorLoginBody.entries;
      const checked = parseBody(rules.ticket, fieldOf(body, 'ticket'));
      if (!checked.ok) throw new TicketVoid(checked.message);
      const ticket = checked.value;
      const row = (await tickets().findOne({ where: { ticket_hash: { $in: keyedHashes(ticket, keys()) } } })) as TicketRow | null;
      const now = Date.now();
      // A ticket from before a revocation is gone (src/security/sessions/revocation.ts); a gone member's is void.
      const memberExists = row ? (await strapi.db.query(UID.user).count({ where: { id: row.user_id } })) > 0 : false;
      // A ticket written just after a revocation deleted the others (its password checked before) is void too.
      const revokedAfter = row ? await revokedSince(strapi, row.user_id, new Date(Number(row.expires_at) - TICKET_TTL_MS)) : false;
      const passwordReplaced = row?.credentials ? (await currentCredentialStamp(strapi, row.user_id)) !== row.credentials : false;
      if (!row || row.used_at || Number(row.expires_at) <= now || !memberExists || revokedAfter || passwordReplaced) {
        throw new TicketVoid();
      }
      const code = validBody(rules.code, fieldOf(body, 'code'));
      // Said as it is, not "expired": the member knows why and logs in again.
      if ((row.failures ?? 0) >= TICKET_MAX_FAILURES) throw new TicketVoid(messages.ticketBurnt);
      // Counted on the ticket, then on the account, before the code is checked; a right code uses the ticket.
      if (!(await reserveTicketAttempt(row.id, now))) {
        const after = await tickets().findOne({ where: { id: row.id }, select: ['failures'] });
        throw new TicketVoid((after?.failures ?? 0) >= TICKET_MAX_FAILURES ? messages.ticketBurnt : undefined);
      }
      const right = await checkCode(ctx, row.user_id, code, { recovery: true }).catch(async (error: unknown) => {
        // A refusal (429) or a fault: the code was not answered, so the ticket keeps its attempt.
        await returnTicketAttempt(row.id).catch((failure: unknown) =>
          strapi.log.warn(`[two-factor] could not give a ticket its attempt back: ${String(failure)}`),
        );
        throw error;
      });
      if (!right) throw new errors.ValidationError(messages.wrongCode);
      const { count } = await tickets().updateMany({ where: { id: row.id, used_at: { $null: true } }, data: { used_at: now } });
      if (count !== 1) throw new TicketVoid();
      return { userId: row.user_id, proof: row.credentials ? { credentials: row.credentials } : {} };
    },

    /** For guardedGuess (src/security/guess-budget.ts): an app code or a recovery code, counted first; false when two-factor is off. */
    async checkCode(ctx: RefusableCtx, userId: number, given: unknown): Promise<boolean> {
      if (!codeGiven(given) || !(await isEnabled(userId))) return false;
      return checkCode(ctx, userId, given, { recovery: true });
    },

    removeEverything,
  };
};

export type TwoFactorService = ReturnType<typeof import('./two-factor').default>;
