import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { checkPasskeyName, passkeyMessages } from '../../../contract/passkeys';
import type { MemberContext, RequestContext } from '../../../request-context';
import type { PasskeyService } from '../services/passkey';
import { answerSignIn } from '../../../security/sessions/sign-in';

const { ValidationError, NotFoundError } = errors;
/** A sign-in whose passkey was removed (by "Log out of all devices" or a new password) before its session's row. */
const SIGNED_IN_WITH_REMOVED_PASSKEY = { status: 400, name: 'ValidationError', message: passkeyMessages.unknownPasskey };
/** The largest id of a PostgreSQL integer column. */
const MAX_ID = 2_147_483_647;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `credential` of a JSON body; a clear 400 without one. */
function credentialOf(body: unknown): Record<string, unknown> {
  if (!isRecord(body) || !isRecord(body.credential)) throw new ValidationError(passkeyMessages.credentialMissing);
  return body.credential;
}

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const service = () => strapi.service('api::passkey.passkey') as unknown as PasskeyService;

  return {
    /** POST /api/passkeys/registration-options: WebAuthn creation options; the challenge is the member's, 5 minutes, once. */
    async registrationOptions(ctx: MemberContext) {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await service().registrationOptions(ctx.state.user.id);
    },

    /** POST /api/passkeys { credential, name? }: verifies the registration and saves the passkey. */
    async create(ctx: MemberContext) {
      const body: unknown = ctx.request.body;
      const checked = checkPasskeyName(isRecord(body) ? body.name : undefined);
      if (!checked.ok) throw new ValidationError(checked.message);
      const credential = credentialOf(body);
      const passkey = await service().register(ctx.state.user.id, credential, checked.name, ctx.get('user-agent'));
      ctx.status = 201;
      ctx.body = { data: passkey };
    },

    /** GET /api/passkeys: the member's own passkeys. */
    async find(ctx: MemberContext) {
      ctx.body = { data: await service().list(ctx.state.user.id) };
    },

    /** DELETE /api/passkeys/:id: own passkeys only; any other id is not found. */
    async delete(ctx: MemberContext) {
      const id = /^[1-9]\d{0,9}$/.test(String(ctx.params.id)) ? Number(ctx.params.id) : NaN;
      if (!(id <= MAX_ID)) throw new NotFoundError(passkeyMessages.notFound);
      await service().remove(ctx.state.user.id, id);
      ctx.body = { ok: true };
    },

    /** POST /api/auth/passkey/options (public): a sign-in challenge for any of the site's passkeys. */
    async signInOptions(ctx: RequestContext) {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await service().authenticationOptions();
    },

    /**
     * POST /api/auth/passkey { credential } (public): a verified passkey sign-in gets a session issued
     * exactly as a password log-in's (src/security/sessions/tokens.ts), answered
     * { jwt, user }. User verification is required, so no second factor is asked (docs/security.md#passkeys).
     */
    async signIn(ctx: RequestContext) {
      const { userId, passkeyId } = await service().authenticate(credentialOf(ctx.request.body));
      // A passkey removed (by "Log out of all devices" or a new password) before the session's row: refused.
      await answerSignIn(strapi, ctx, userId, {
        proof: { passkeyId },
        gone: () => new ValidationError(passkeyMessages.unknownPasskey),
        credentialsChanged: SIGNED_IN_WITH_REMOVED_PASSKEY,
      });
    },
  };
};
