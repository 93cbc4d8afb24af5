import type { Core } from '@strapi/strapi';
import type { NextMiddleware as Next, RequestContext as Ctx } from '../../request-context';
import { errors } from '@strapi/utils';
import { createAuthRateLimit } from '../../security/auth-rate-limit';
import { emailMessages, isValidEmail } from '../../contract/fieldRules';
import { registerBody } from '../../contract/auth';
import { validBody } from '../../validated-body';
import { TAKEN_MESSAGES, identifierWhere, usernameTaken } from '../../security/identifiers';
import { accountSubject, clearThrottle, throttledLogIn } from '../../security/login-throttle';
import { answerRefusedSession, recordAnsweredSession, withSessionTokens } from '../../security/sessions/tokens';
import { credentialStamp } from '../../security/sessions/credentials';
import { applyProfileGuards } from './profile-guard';
import { withSocialSignIn } from './social/controller';
import { extendOnce } from '../extend-once';
import { passwordHashCost } from '../../security/password-hash';
import { UID } from '../../content-types';
import { FORGOT_PASSWORD_MIN_MS } from '../../api/account/services/password-reset';
import { mailKindContext } from '../../api/email-message/services/mail-queue';
import { notifyOwner } from '../../mail/notify-owner';
import type { TwoFactorService } from '../../api/two-factor/services/two-factor';
import type { TwoFactorChallenge } from '../../contract/twoFactor';

type Handler = (ctx: any, next?: any) => unknown;
type ControllerFactory = (deps: { strapi: Core.Strapi }) => Record<string, Handler>;
type ServiceFactory = (deps: { strapi: Core.Strapi }) => any;

interface UsersPermissionsPlugin {
  contentTypes: { user: { schema: { attributes: { password: Record<string, unknown> } } } };
  controllers: Record<string, ControllerFactory>;
  services: Record<string, ServiceFactory>;
  middlewares: Record<string, (config: unknown, deps: { strapi: Core.Strapi }) => unknown>;
  [key: string]: unknown;
}

const INVALID_LOGIN = 'Invalid identifier or password';
/** A log-in's session refused because its password was replaced meanwhile: the answer it gets 70 ms later. */
const PASSWORD_REPLACED = { status: 400, name: 'ValidationError', message: INVALID_LOGIN };

/** The credential stamp each password log-in read before its password was checked (security/sessions/credentials.ts). */
const provenCredentials = new WeakMap<object, string | null>();
/** users-permissions' own answer when its check before a sign-up finds the e-mail or username in use. */
const STRAPI_TAKEN = 'Email or Username are already taken';

/**
 * The confirmation token and its e-mail are written in one transaction (the email plugin's `send`
 * queues the mail, src/extensions/email/strapi-server.ts): a crash or a mail outage loses neither.
 */
function withTransactionalConfirmation(createUserService: ServiceFactory): ServiceFactory {
  return (deps) => {
    const service = createUserService(deps);
    const sendConfirmationEmail = service.sendConfirmationEmail as (user: unknown) => Promise<void>;
    service.sendConfirmationEmail = (user: unknown) =>
      mailKindContext.run('confirmation', () => deps.strapi.db.transaction(() => sendConfirmationEmail.call(service, user)));
    return service;
  };
}

/**
 * The one gate every sign-in answer passes: an answer carrying a session for a member with two-factor
 * authentication on is replaced by the second step's ticket (api/two-factor). A password log-in gets
 * here; so would a confirmation link or any provider that ever returned a password account's session.
 * Any other answer's session is recorded (src/security/sessions/tokens.ts); the replaced one never is,
 * so its token never works: no row, no signed-in device, no alert.
 */
async function startSession(strapi: Core.Strapi, ctx: Ctx): Promise<void> {
  const body: unknown = ctx.body;
  if (!isPlainObject(body) || typeof body.jwt !== 'string' || !isPlainObject(body.user) || typeof body.user.id !== 'number') return;
  const proof = provenCredentials.has(ctx) ? { credentials: provenCredentials.get(ctx) ?? null } : {};
  const twoFactor = strapi.service('api::two-factor.two-factor') as unknown as TwoFactorService;
  if (!(await twoFactor.isEnabled(body.user.id))) return recordAnsweredSession(strapi, ctx, proof);
  const challenge: TwoFactorChallenge = { twoFactorRequired: true, ticket: await twoFactor.issueTicket(body.user.id, proof) };
  ctx.set('Cache-Control', 'no-store');
  ctx.body = challenge;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * users-permissions, customised (see docs/security.md):
 * - forgot-password / reset-password use short, single-use, hashed, 1-hour codes (api::account.password-reset);
 * - every token has a revocable session row (src/security/sessions/);
 * - log-in identifiers are unambiguous and failed log-ins are throttled per account, and per
 *   identifier alike where no account has it (src/security/login-throttle.ts);
 * - the auth routes' rate limit is shared by every instance (src/security/auth-rate-limit.ts);
 * - send-email-confirmation answers the same whether or not the address has an account;
 * - the confirmation token and its e-mail are committed together (the mail queue, docs/operations.md#mail-queue);
 * - no answer carries a session of a member with two-factor on: the second step comes first (startSession).
 * The plugin's routes stay as they are.
 */
export default (plugin: UsersPermissionsPlugin) => {
  // bcrypt's cost, read by the plugin's user service and the document service alike (security/password-hash.ts).
  plugin.contentTypes.user.schema.attributes.password.encryption = { rounds: passwordHashCost() };
  plugin.middlewares.rateLimit = (_config, { strapi }) => createAuthRateLimit(strapi);
  plugin.services.jwt = extendOnce(plugin.services.jwt, withSessionTokens);
  plugin.services.user = extendOnce(plugin.services.user, withTransactionalConfirmation);
  plugin.controllers.auth = extendOnce(plugin.controllers.auth, authController);

  // Profile update (self only, SPEC §7 fields and §5 rules) and change-password guards.
  applyProfileGuards(plugin as unknown as { routes: Record<string, unknown> });

  return plugin;
};

/** The auth controller: the plugin's own, with Google / Apple ID-token sign-in and Facebook's code flow (./social/controller.ts). */
function authController(ownAuth: ControllerFactory): ControllerFactory {
  const createAuthController = withSocialSignIn(ownAuth);
  return ({ strapi }) => {
    const base = createAuthController({ strapi });
    const users = () => strapi.db.query(UID.user);

    const passwordOrProviderLogIn = async (ctx: Ctx, next: Next) => {
      const body: unknown = ctx.request.body;
      const isLocal = (ctx.params.provider ?? 'local') === 'local';
      if (!isLocal || !isPlainObject(body) || typeof body.identifier !== 'string' || !body.identifier.trim()) {
        return base.callback(ctx, next);
      }
      const identifier = body.identifier.trim();
      const user = (await users().findOne({
        where: { provider: 'local', ...identifierWhere(identifier) },
        select: ['id', 'email', 'username', 'password'],
      })) as { id: number; email: string; username: string; password: string | null } | null;
      // Read before the password is checked: the session is written only if it still holds then. No account
      // here (the plugin's own lookup is wider) proves nothing: a session it answers anyway is refused.
      provenCredentials.set(ctx, user ? credentialStamp(user) : null);
      // An identifier no account has is counted and locked the same way: the answers never tell.
      return throttledLogIn(strapi, ctx, {
        realm: 'member',
        accountId: user ? user.id : null,
        identifier,
        password: body.password,
        comparePassword: (password, hash) => strapi.plugin('users-permissions').service('user').validatePassword(password, hash),
        isInvalidCredentials: (error) => error instanceof errors.ValidationError && error.message === INVALID_LOGIN,
        signedIn: () => true,
        logIn: () => {
          // Hand Strapi the exact stored value, so its own lookup finds this user and no other.
          if (user) body.identifier = identifier.includes('@') ? user.email : user.username;
          return base.callback(ctx, next);
        },
      });
    };

    const registerChecked = async (ctx: Ctx, next: Next) => {
      // The sign-up form's own schema (SPEC §5 and the username rules), in its words: the address by the
      // one rule the mail queue sends by too, so one it cannot send to is refused here, not as a 500 later.
      const { username, email } = validBody(registerBody, ctx.request.body);
      if (await usernameTaken(strapi, username)) throw new errors.ApplicationError(TAKEN_MESSAGES.username);
      ctx.request.body = { ...(ctx.request.body as object), username, email };
      try {
        return await base.register(ctx, next);
      } catch (error) {
        // Say which identifier is taken. A sign-up that lost a race to the database's unique index
        // arrives here as an IdentifierTakenError (already worded), never as a 500.
        if (error instanceof errors.ApplicationError && error.message === STRAPI_TAKEN) {
          throw new errors.ApplicationError(TAKEN_MESSAGES[(await usernameTaken(strapi, username)) ? 'username' : 'email']);
        }
        throw error;
      }
    };

    // Every road that answers a token: the session is started (or the second step asked) before the answer leaves.
    const thenStartSession = (handler: (ctx: Ctx, next: Next) => unknown) => async (ctx: Ctx, next: Next) => {
      const result = await handler(ctx, next);
      await startSession(strapi, ctx).catch((error: unknown) => {
        if (!answerRefusedSession(ctx, error, PASSWORD_REPLACED)) throw error;
      });
      return result;
    };

    return {
      ...base,

      callback: thenStartSession(passwordOrProviderLogIn),
      emailConfirmation: thenStartSession(base.emailConfirmation),
      register: thenStartSession(registerChecked),
      connect: thenStartSession(base.connect),

      async forgotPassword(ctx: Ctx) {
        await strapi.service('api::account.password-reset').forgotPassword(ctx.request.body);
        ctx.send({ ok: true });
      },

      async resetPassword(ctx: Ctx) {
        const userId: number = await strapi.service('api::account.password-reset').resetPassword(ctx.request.body);
        await clearThrottle(accountSubject('member', userId));
        await notifyOwner(strapi, userId, 'password-reset');
        ctx.send({ ok: true });
      },

      async changePassword(ctx: Ctx, next: Next) {
        const result = await base.changePassword(ctx, next);
        // Signed in already: the new session needs no second step. The password is changed either way: a
        // refusal (a log-out-all meanwhile) ends only this answer's new session, and the owner is told.
        await recordAnsweredSession(strapi, ctx).catch((error: unknown) => {
          if (!answerRefusedSession(ctx, error)) throw error;
        });
        await notifyOwner(strapi, ctx.state.user!.id, 'password-changed');
        return result;
      },

      /** The same answer for unknown, confirmed, blocked and unconfirmed addresses; only the last get mail. */
      async sendEmailConfirmation(ctx: Ctx) {
        const body: unknown = ctx.request.body;
        const email = isPlainObject(body) && typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
        if (!isValidEmail(email)) throw new errors.ValidationError(emailMessages.invalid);
        const user = (await users().findOne({ where: { email } })) as { id: number; confirmed?: boolean; blocked?: boolean } | null;
        const started = Date.now();
        if (user && !user.confirmed && !user.blocked) {
          // Committed before the answer (token and queued mail together); failures are logged, the answer is the same.
          await strapi
            .plugin('users-permissions')
            .service('user')
            .sendConfirmationEmail(user)
            .catch((error: unknown) =>
              strapi.log.error(`[auth] could not queue a confirmation e-mail to user ${user.id}: ${String(error)}`),
            );
        }
        // The same time for every address, so the answer does not tell whether it has an account.
        const wait = FORGOT_PASSWORD_MIN_MS - (Date.now() - started);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        ctx.send({ email, sent: true });
      },
    };
  };
}
