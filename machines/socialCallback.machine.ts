import { assign, fromPromise, sendTo, setup } from 'xstate';
import { errorMessage } from './services/errors';
import { SOCIAL_FALLBACKS, connectCallback } from './services/social';
import type { AuthResponse } from '../server/src/contract/auth';
import { safeReturnPath } from './rules/returnPath';
import type { AuthActorRef } from './authSession.machine';

export const INVALID_SOCIAL_RESPONSE = 'Invalid social login response';

type CallbackInput = {
  /** The session's owner: it starts the session, or shows /login with the failure. */
  auth: AuthActorRef;
  provider: string | undefined;
  code: string | undefined;
  /** The provider's anti-forgery state, returned to the server with the code. */
  state?: string;
  /** The provider's error parameter, when it sent one (possibly empty). */
  error: string | undefined;
  /** The route saved under socialLoginRedirect before leaving for the provider. */
  savedRedirect: string | null;
};

/** /auth/{provider}/callback, exactly as SPEC §4 describes it. */
export const socialCallbackMachine = setup({
  types: {
    context: {} as CallbackInput,
    input: {} as CallbackInput,
  },
  actors: {
    connect: fromPromise<AuthResponse, { provider: string; code: string; state?: string }>(({ input, signal }) =>
      connectCallback(input.provider, input.code, input.state, { signal }),
    ),
  },
  actions: {
    forgetSavedRedirect: () => {},
    /** SPEC §4: the failure is shown on /login. */
    showLoginWith: sendTo(
      ({ context }) => context.auth,
      (_, notice: string) => ({ type: 'login.requested', notice }),
    ),
  },
  guards: {
    providerSentError: ({ context }) => context.error !== undefined,
    hasCodeAndProvider: ({ context }) => Boolean(context.code && context.provider),
  },
}).createMachine({
  id: 'socialCallback',
  context: ({ input }) => input,
  initial: 'checking',
  states: {
    checking: {
      always: [
        {
          guard: 'providerSentError',
          target: 'failed',
          actions: { type: 'showLoginWith', params: ({ context }) => context.error || SOCIAL_FALLBACKS.callback },
        },
        { guard: 'hasCodeAndProvider', target: 'processing' },
        {
          target: 'failed',
          actions: { type: 'showLoginWith', params: INVALID_SOCIAL_RESPONSE },
        },
      ],
    },
    processing: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'connect',
        src: 'connect',
        // Stryker disable next-line StringLiteral: hasCodeAndProvider, the only way in, checked both are set.
        input: ({ context }) => ({ provider: context.provider ?? '', code: context.code ?? '', state: context.state }),
        onDone: {
          target: 'signedIn',
          actions: [
            'forgetSavedRedirect',
            sendTo(
              ({ context }) => context.auth,
              ({ context, event }) => ({
                type: 'session.started',
                response: event.output,
                returnTo: safeReturnPath(context.savedRedirect),
              }),
            ),
          ],
        },
        onError: {
          target: 'failed',
          actions: [
            assign({ error: ({ event }) => errorMessage(event.error, SOCIAL_FALLBACKS.callback) }),
            { type: 'showLoginWith', params: ({ context }) => context.error ?? SOCIAL_FALLBACKS.callback },
          ],
        },
      },
    },
    signedIn: { type: 'final' },
    failed: { type: 'final' },
  },
});
