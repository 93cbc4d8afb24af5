import { assign, fromPromise, setup } from 'xstate';
import { errorMessage } from '../src/api/errors';
import { SOCIAL_FALLBACKS, connectCallback } from '../src/api/social';
import type { AuthResponse } from '../src/api/types';
import type { NavigationRequest } from '../src/lib/navigation';
import { safeReturnPath } from '../src/lib/returnPath';
import { isNewAccount } from '../src/lib/validation';

export const INVALID_SOCIAL_RESPONSE = 'Invalid social login response';

type CallbackInput = {
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
    startSession: (_, _response: AuthResponse) => {},
    forgetSavedRedirect: () => {},
    navigate: (_, _request: NavigationRequest) => {},
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
          actions: {
            type: 'navigate',
            params: ({ context }) => ({ href: '/login', message: context.error || SOCIAL_FALLBACKS.callback, replace: true }),
          },
        },
        { guard: 'hasCodeAndProvider', target: 'processing' },
        {
          target: 'failed',
          actions: { type: 'navigate', params: { href: '/login', message: INVALID_SOCIAL_RESPONSE, replace: true } },
        },
      ],
    },
    processing: {
      tags: ['busy'],
      invoke: {
        id: 'connect',
        src: 'connect',
        input: ({ context }) => ({ provider: context.provider ?? '', code: context.code ?? '', state: context.state }),
        onDone: {
          target: 'signedIn',
          actions: [
            { type: 'startSession', params: ({ event }) => event.output },
            'forgetSavedRedirect',
            {
              type: 'navigate',
              params: ({ context, event }) => ({
                href: isNewAccount(event.output.user.createdAt, Date.now()) ? '/bmi' : safeReturnPath(context.savedRedirect),
                replace: true,
              }),
            },
          ],
        },
        onError: {
          target: 'failed',
          actions: [
            assign({ error: ({ event }) => errorMessage(event.error, SOCIAL_FALLBACKS.callback) }),
            {
              type: 'navigate',
              params: ({ event }) => ({ href: '/login', message: errorMessage(event.error, SOCIAL_FALLBACKS.callback), replace: true }),
            },
          ],
        },
      },
    },
    signedIn: { type: 'final' },
    failed: { type: 'final' },
  },
});
