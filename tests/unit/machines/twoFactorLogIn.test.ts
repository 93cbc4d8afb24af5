import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AuthResponse } from '../../../server/src/contract/auth';
import type { TwoFactorLoginPayload } from '../../../server/src/contract/twoFactor';
import { ApiError } from '../../../machines/services/errors';
import { safeReturnPath } from '../../../machines/rules/returnPath';
import { twoFactorLogInMachine } from '../../../machines/twoFactorLogIn.machine';
import { deferredCalls } from '../../support/deferred';
import { nextTick, pendingNetwork, recordingAuth } from './machineTestKit';

/** The second step with POST /api/auth/two-factor as a double, and a real auth actor recording what it is told. */
function start() {
  const codes = deferredCalls<TwoFactorLoginPayload, AuthResponse>();
  const session = recordingAuth();
  const machine = twoFactorLogInMachine.provide({
    actors: { loginWithCode: fromPromise<AuthResponse, TwoFactorLoginPayload>(({ input }) => codes.handler(input)) },
  });
  const actor = createActor(machine, {
    input: { auth: session.auth, ticket: 'ticket-1', returnTo: safeReturnPath('/profile') },
    inspect: session.inspect,
  }).start();
  return { actor, session, codes, context: () => actor.getSnapshot().context };
}

const answer: AuthResponse = { jwt: 'two-factor-token', user: { id: 12, createdAt: '2025-01-01T00:00:00.000Z' } };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('twoFactorLogIn (issue 23: the second step of a log-in)', () => {
  it('waits for the code, holding the ticket', () => {
    const { actor, context } = start();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(context()).toMatchObject({ ticket: 'ticket-1', returnTo: '/profile', error: null });
  });

  it("sends the ticket and the trimmed code ('busy'), ignoring repeats and Back, then hands the session to the auth actor, on to 'from'", async () => {
    const { actor, codes, session } = start();
    actor.send({ type: 'twoFactor.submitted', code: ' 123456 ' });
    expect(actor.getSnapshot().matches('submitting')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(codes.calls.map((call) => call.input)).toEqual([{ ticket: 'ticket-1', code: '123456' }]);
    actor.send({ type: 'twoFactor.submitted', code: '1' });
    actor.send({ type: 'twoFactor.cancelled' });
    expect(actor.getSnapshot().matches('submitting')).toBe(true);
    expect(codes.calls).toHaveLength(1);
    codes.last().settle.resolve(answer);
    await nextTick();
    expect(actor.getSnapshot().status).toBe('done');
    expect(session.received).toEqual([{ type: 'session.started', response: answer, next: { href: '/profile' } }]);
  });

  it("a wrong code or a void ticket keeps the step with the server's message, or 'Login failed'; a new code clears it", async () => {
    const { actor, codes, context, session } = start();
    actor.send({ type: 'twoFactor.submitted', code: '000000' });
    codes.last().settle.reject(new ApiError('That code is not right. Try again.', 400));
    await nextTick();
    expect(actor.getSnapshot().matches('failure')).toBe(true);
    expect(context().error).toBe('That code is not right. Try again.');

    actor.send({ type: 'twoFactor.submitted', code: '111111' });
    expect(context().error).toBeNull();
    codes.last().settle.reject(new ApiError('', 429));
    await nextTick();
    expect(context().error).toBe('Login failed');

    actor.send({ type: 'twoFactor.submitted', code: '222222' });
    expect(codes.last().input).toEqual({ ticket: 'ticket-1', code: '222222' });
    codes.last().settle.reject(new ApiError('Your log-in has expired. Please log in again.', 401));
    await nextTick();
    expect(actor.getSnapshot().matches('failure')).toBe(true);
    expect(context().error).toBe('Your log-in has expired. Please log in again.');
    expect(session.received).toEqual([]);
  });

  it.each([
    ['at rest', async () => {}],
    [
      'after a refusal',
      async (page: ReturnType<typeof start>) => {
        page.actor.send({ type: 'twoFactor.submitted', code: '000000' });
        page.codes.last().settle.reject(new ApiError('That code is not right. Try again.', 400));
        await nextTick();
      },
    ],
  ])('Back %s ends the step, telling the session nothing', async (_when, before) => {
    const page = start();
    await before(page);
    page.actor.send({ type: 'twoFactor.cancelled' });
    expect(page.actor.getSnapshot().status).toBe('done');
    expect(page.actor.getSnapshot().matches('cancelled')).toBe(true);
    expect(page.session.received).toEqual([]);
  });

  it('its own actor posts the ticket and code to /api/auth/two-factor and stops the request when the page goes', async () => {
    const network = pendingNetwork();
    const session = recordingAuth();
    const actor = createActor(twoFactorLogInMachine, {
      input: { auth: session.auth, ticket: 'ticket-1', returnTo: safeReturnPath('/') },
    }).start();
    actor.send({ type: 'twoFactor.submitted', code: ' 123456 ' });
    await network.sent(actor, '/api/auth/two-factor', { ticket: 'ticket-1', code: '123456' });
  });
});
