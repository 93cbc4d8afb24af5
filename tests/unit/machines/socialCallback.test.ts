import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AuthResponse } from '../../../server/src/contract/auth';
import { socialCallbackMachine } from '../../../machines/socialCallback.machine';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick, recordingAuth } from './machineTestKit';

// GET /api/connect/{provider}/callback (SPEC §7) is a double, shaped like the service call the machine's actor makes.
const connectCallback =
  vi.fn<(provider: string, code: string, state: string | undefined, options: { signal: AbortSignal }) => Promise<AuthResponse>>();
const connect = fromPromise<AuthResponse, { provider: string; code: string; state?: string }>(({ input, signal }) =>
  connectCallback(input.provider, input.code, input.state, { signal }),
);

let request: Deferred<AuthResponse>;

beforeEach(() => {
  request = deferred<AuthResponse>();
  connectCallback.mockReset().mockReturnValue(request.promise);
});

type CallbackUrl = { provider?: string; code?: string; state?: string; error?: string; savedRedirect?: string | null };

/** /auth/{provider}/callback with the given path segment and query, and what socialLoginRedirect holds. */
function start({ provider, code, state, error, savedRedirect = null }: CallbackUrl) {
  const session = recordingAuth();
  const forgetSavedRedirect = vi.fn();
  const machine = socialCallbackMachine.provide({ actors: { connect }, actions: { forgetSavedRedirect } });
  const actor = createActor(machine, {
    input: { auth: session.auth, provider, code, state, error, savedRedirect },
    inspect: session.inspect,
  }).start();
  return { actor, session, forgetSavedRedirect };
}

const answer: AuthResponse = {
  jwt: 'social-token',
  user: { id: 12, username: 'fbeater', email: 'fb@example.com', createdAt: '2025-01-01T00:00:00.000Z' },
};

describe('socialCallback (SPEC §2 and §4 Social login callback, §7, §8)', () => {
  describe('the provider sent an error parameter', () => {
    it.each([
      ['access_denied', 'access_denied'],
      ['', 'Social login failed'],
    ])('error=%j goes to /login with %j, even with a code, and calls nothing', (error, notice) => {
      const { actor, session, forgetSavedRedirect } = start({ provider: 'facebook', code: 'abc', error });
      expect(actor.getSnapshot().status).toBe('done');
      expect(actor.getSnapshot().value).toBe('failed');
      expect(session.received).toEqual([{ type: 'login.requested', notice }]);
      expect(connectCallback).not.toHaveBeenCalled();
      expect(forgetSavedRedirect).not.toHaveBeenCalled();
    });
  });

  it.each<CallbackUrl>([{ provider: 'facebook' }, { code: 'abc' }, { provider: 'facebook', code: '' }, { provider: '', code: 'abc' }, {}])(
    "goes to /login with 'Invalid social login response' when the code or provider is missing: %j",
    (url) => {
      const { actor, session } = start(url);
      expect(actor.getSnapshot().status).toBe('done');
      expect(actor.getSnapshot().value).toBe('failed');
      expect(session.received).toEqual([{ type: 'login.requested', notice: 'Invalid social login response' }]);
      expect(connectCallback).not.toHaveBeenCalled();
    },
  );

  it("calls the provider callback with the code and the provider's state, showing 'Processing login...' (busy)", () => {
    const { actor, session } = start({ provider: 'facebook', code: 'abc', state: 'xyz' });
    expect(actor.getSnapshot().value).toBe('processing');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(connectCallback).toHaveBeenCalledWith('facebook', 'abc', 'xyz', { signal: expect.any(AbortSignal) });
    expect(session.received).toEqual([]);
  });

  it('calls it without a state when the provider sent none', () => {
    start({ provider: 'facebook', code: 'abc' });
    expect(connectCallback).toHaveBeenCalledWith('facebook', 'abc', undefined, { signal: expect.any(AbortSignal) });
  });

  describe('on success', () => {
    it('starts the session with the saved redirect path and removes the saved value', async () => {
      const { actor, session, forgetSavedRedirect } = start({ provider: 'facebook', code: 'abc', savedRedirect: '/profile' });
      expect(forgetSavedRedirect).not.toHaveBeenCalled();
      request.resolve(answer);
      await nextTick();
      expect(actor.getSnapshot().status).toBe('done');
      expect(actor.getSnapshot().value).toBe('signedIn');
      expect(actor.getSnapshot().hasTag('busy')).toBe(false);
      expect(forgetSavedRedirect).toHaveBeenCalledTimes(1);
      expect(session.received).toEqual([{ type: 'session.started', response: answer, returnTo: '/profile' }]);
    });

    it.each([null, '//evil.example', 'https://evil.example/'])('returns to / when the saved path is %j', async (savedRedirect) => {
      const { session } = start({ provider: 'facebook', code: 'abc', savedRedirect });
      request.resolve(answer);
      await nextTick();
      expect(session.received).toEqual([{ type: 'session.started', response: answer, returnTo: '/' }]);
    });
  });

  it("on failure goes to /login with the server's error.message, or 'Social login failed', keeping the saved path", async () => {
    const first = start({ provider: 'facebook', code: 'abc', savedRedirect: '/profile' });
    request.reject(new Error('Invalid authorization code'));
    await nextTick();
    expect(first.actor.getSnapshot().status).toBe('done');
    expect(first.actor.getSnapshot().value).toBe('failed');
    expect(first.actor.getSnapshot().context.error).toBe('Invalid authorization code');
    expect(first.session.received).toEqual([{ type: 'login.requested', notice: 'Invalid authorization code' }]);
    expect(first.forgetSavedRedirect).not.toHaveBeenCalled();

    connectCallback.mockRejectedValue(new Error(''));
    const second = start({ provider: 'facebook', code: 'abc' });
    await nextTick();
    expect(second.session.received).toEqual([{ type: 'login.requested', notice: 'Social login failed' }]);
  });
});
