import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AuthResponse } from '../../../server/src/contract/auth';
import { socialSignInMachine, type PopupProvider } from '../../../machines/socialSignIn.machine';
import { deferred, deferredCalls, type Deferred } from '../../support/deferred';
import { nextTick, recordingAuth } from './machineTestKit';

// GET /api/auth/{google|apple}/callback (SPEC §7) is a double, shaped like the service call the machine's actor makes.
const exchangeIdToken = vi.fn<(provider: PopupProvider, token: string, options: { signal: AbortSignal }) => Promise<AuthResponse>>();
const exchangeToken = fromPromise<AuthResponse, { provider: PopupProvider; token: string }>(({ input, signal }) =>
  exchangeIdToken(input.provider, input.token, { signal }),
);

let exchange: Deferred<AuthResponse>;

beforeEach(() => {
  exchange = deferred<AuthResponse>();
  exchangeIdToken.mockReset().mockReturnValue(exchange.promise);
});

/** Log In's social buttons with the provider clients and the browser redirect as doubles. */
function start() {
  const session = recordingAuth();
  const popup = deferredCalls<{ provider: PopupProvider }, string>();
  const redirectCheck = deferredCalls<undefined, void>();
  // One log for both browser actions: SPEC §2 saves the return route, then redirects.
  const browser: string[] = [];
  const machine = socialSignInMachine.provide({
    actors: {
      exchangeToken,
      authorize: fromPromise(({ input }: { input: { provider: PopupProvider } }) => popup.handler(input)),
      checkRedirectProvider: fromPromise(() => redirectCheck.handler(undefined)),
    },
    actions: {
      saveReturnRoute: (_, returnTo) => browser.push(`socialLoginRedirect=${returnTo}`),
      redirectTo: (_, url) => browser.push(`redirect to ${url}`),
    },
  });
  const actor = createActor(machine, { input: { auth: session.auth }, inspect: session.inspect }).start();
  return { actor, session, popup, redirectCheck, browser };
}

const answer: AuthResponse = { jwt: 'social-token', user: { id: 12, createdAt: '2025-01-01T00:00:00.000Z' } };

describe('socialSignIn (SPEC §2 Log In, §4, §7, §8 Social sign-in)', () => {
  it('waits at rest for a button', () => {
    const { actor } = start();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context).toMatchObject({ provider: null, token: null, returnTo: '/', error: null });
  });

  describe.each<[PopupProvider, string, string]>([
    ['google', 'Google Sign-In was canceled or failed', 'Google Sign-In failed'],
    ['apple', 'Apple Sign-In was canceled or failed', 'Apple Sign-In failed'],
  ])('Continue with %s', (provider, cancelled, failed) => {
    it("asks the provider's client for an ID token (busy), ignoring the other buttons meanwhile", () => {
      const { actor, popup, redirectCheck } = start();
      actor.send({ type: 'popup.requested', provider, returnTo: '/profile' });
      expect(actor.getSnapshot().matches('authorizing')).toBe(true);
      expect(actor.getSnapshot().hasTag('busy')).toBe(true);
      expect(actor.getSnapshot().context).toMatchObject({ provider, returnTo: '/profile' });
      expect(popup.calls.map((call) => call.input)).toEqual([{ provider }]);

      actor.send({ type: 'popup.requested', provider: 'google', returnTo: '/' });
      actor.send({ type: 'redirect.requested', returnTo: '/' });
      expect(popup.calls).toHaveLength(1);
      expect(redirectCheck.calls).toHaveLength(0);
    });

    it('sends the token to the server (busy), then hands the session its answer and the return route', async () => {
      const { actor, popup, session } = start();
      actor.send({ type: 'popup.requested', provider, returnTo: '/profile' });
      popup.last().settle.resolve('id-token');
      await nextTick();
      expect(actor.getSnapshot().matches('exchanging')).toBe(true);
      expect(actor.getSnapshot().hasTag('busy')).toBe(true);
      expect(actor.getSnapshot().context.token).toBe('id-token');
      expect(exchangeIdToken).toHaveBeenCalledWith(provider, 'id-token', { signal: expect.any(AbortSignal) });
      expect(session.received).toEqual([]);

      exchange.resolve(answer);
      await nextTick();
      expect(actor.getSnapshot().status).toBe('done');
      expect(actor.getSnapshot().value).toBe('signedIn');
      expect(actor.getSnapshot().hasTag('busy')).toBe(false);
      expect(actor.getSnapshot().context.token).toBeNull();
      expect(session.received).toEqual([{ type: 'session.started', response: answer, returnTo: '/profile' }]);
    });

    it(`shows the provider's message, or '${cancelled}', when the sign-in is cancelled, and can be tried again`, async () => {
      const { actor, popup } = start();
      actor.send({ type: 'popup.requested', provider, returnTo: '/' });
      popup.last().settle.reject(new Error('popup_closed_by_user'));
      await nextTick();
      expect(actor.getSnapshot().matches('idle')).toBe(true);
      expect(actor.getSnapshot().context.error).toBe('popup_closed_by_user');
      expect(exchangeIdToken).not.toHaveBeenCalled();

      actor.send({ type: 'popup.requested', provider, returnTo: '/' });
      expect(actor.getSnapshot().context.error).toBeNull();
      popup.last().settle.reject(new Error(''));
      await nextTick();
      expect(actor.getSnapshot().context.error).toBe(cancelled);
    });

    it(`shows the server's error.message, or '${failed}', when the server refuses the token`, async () => {
      const { actor, popup, session } = start();
      actor.send({ type: 'popup.requested', provider, returnTo: '/' });
      popup.last().settle.resolve('id-token');
      exchange.reject(new Error('Email is already taken.'));
      await nextTick();
      await nextTick();
      expect(actor.getSnapshot().matches('idle')).toBe(true);
      expect(actor.getSnapshot().context.error).toBe('Email is already taken.');
      expect(session.received).toEqual([]);

      exchangeIdToken.mockRejectedValue(new Error(''));
      actor.send({ type: 'popup.requested', provider, returnTo: '/' });
      popup.last().settle.resolve('id-token');
      await nextTick();
      await nextTick();
      expect(actor.getSnapshot().context.error).toBe(failed);
    });
  });

  it("shows Apple's 'Apple Sign-In failed: No ID token received' from its client", async () => {
    const { actor, popup } = start();
    actor.send({ type: 'popup.requested', provider: 'apple', returnTo: '/' });
    popup.last().settle.reject(new Error('Apple Sign-In failed: No ID token received'));
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Apple Sign-In failed: No ID token received');
  });

  it.each(['//evil.example', 'https://evil.example/', 'profile'])('returns to / when asked to return to %j', async (returnTo) => {
    const { actor, popup, session } = start();
    actor.send({ type: 'popup.requested', provider: 'google', returnTo });
    expect(actor.getSnapshot().context.returnTo).toBe('/');
    popup.last().settle.resolve('id-token');
    await nextTick();
    exchange.resolve(answer);
    await nextTick();
    expect(session.received).toEqual([{ type: 'session.started', response: answer, returnTo: '/' }]);
  });

  describe('Continue with Facebook', () => {
    it('checks the provider is set up (busy), then saves the return route under socialLoginRedirect and redirects', async () => {
      const { actor, redirectCheck, browser, popup } = start();
      actor.send({ type: 'redirect.requested', returnTo: '/profile' });
      expect(actor.getSnapshot().matches('redirecting')).toBe(true);
      expect(actor.getSnapshot().hasTag('busy')).toBe(true);
      expect(redirectCheck.calls).toHaveLength(1);
      expect(browser).toEqual([]);

      actor.send({ type: 'popup.requested', provider: 'google', returnTo: '/' });
      expect(popup.calls).toHaveLength(0);

      redirectCheck.last().settle.resolve();
      await nextTick();
      expect(actor.getSnapshot().value).toBe('leaving');
      expect(actor.getSnapshot().status).toBe('done');
      // The page is still there until the browser leaves it: the buttons stay disabled.
      expect(actor.getSnapshot().hasTag('busy')).toBe(true);
      expect(browser).toEqual(['socialLoginRedirect=/profile', 'redirect to /api/connect/facebook']);
    });

    it('saves / for a return route that leaves the site', async () => {
      const { actor, redirectCheck, browser } = start();
      actor.send({ type: 'redirect.requested', returnTo: '//evil.example' });
      redirectCheck.last().settle.resolve();
      await nextTick();
      expect(browser).toEqual(['socialLoginRedirect=/', 'redirect to /api/connect/facebook']);
    });

    it("stays with the reason when Facebook is not set up, or 'Facebook sign-in is unavailable right now.'", async () => {
      const { actor, redirectCheck, browser, popup } = start();
      actor.send({ type: 'popup.requested', provider: 'google', returnTo: '/' });
      popup.last().settle.reject(new Error(''));
      await nextTick();
      expect(actor.getSnapshot().context.provider).toBe('google');

      actor.send({ type: 'redirect.requested', returnTo: '/' });
      expect(actor.getSnapshot().context).toMatchObject({ provider: null, error: null });
      redirectCheck.last().settle.reject(new Error('Facebook sign-in is not set up on this site.'));
      await nextTick();
      expect(actor.getSnapshot().matches('idle')).toBe(true);
      expect(actor.getSnapshot().context.error).toBe('Facebook sign-in is not set up on this site.');

      actor.send({ type: 'redirect.requested', returnTo: '/' });
      redirectCheck.last().settle.reject(new Error(''));
      await nextTick();
      expect(actor.getSnapshot().context.error).toBe('Facebook sign-in is unavailable right now.');
      expect(browser).toEqual([]);
    });
  });

  it('without a provider client, fails rather than send the server an empty token', async () => {
    const session = recordingAuth();
    // Only the API is a double: the machine's own authorize runs.
    const machine = socialSignInMachine.provide({ actors: { exchangeToken } });
    const actor = createActor(machine, { input: { auth: session.auth } }).start();
    actor.send({ type: 'popup.requested', provider: 'google', returnTo: '/' });
    await nextTick();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('No provider client was provided');
    expect(exchangeIdToken).not.toHaveBeenCalled();
  });
});
