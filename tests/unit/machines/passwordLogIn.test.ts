import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AuthResponse, LoginPayload } from '../../../server/src/contract/auth';
import type { LoginResponse, TwoFactorLoginPayload } from '../../../server/src/contract/twoFactor';
import { passwordLogInMachine } from '../../../machines/passwordLogIn.machine';
import { twoFactorLogInMachine } from '../../../machines/twoFactorLogIn.machine';
import { deferredCalls } from '../../support/deferred';
import { nextTick, pendingNetwork, recordingAuth } from './machineTestKit';

/** The form with POST /api/auth/local and the second step's call as doubles, and a real auth actor recording what it is told. */
function start() {
  const logins = deferredCalls<LoginPayload, LoginResponse>();
  const codes = deferredCalls<TwoFactorLoginPayload, AuthResponse>();
  const session = recordingAuth();
  const machine = passwordLogInMachine.provide({
    actors: {
      login: fromPromise<LoginResponse, LoginPayload>(({ input }) => logins.handler(input)),
      secondFactor: twoFactorLogInMachine.provide({
        actors: { loginWithCode: fromPromise<AuthResponse, TwoFactorLoginPayload>(({ input }) => codes.handler(input)) },
      }),
    },
  });
  const actor = createActor(machine, { input: { auth: session.auth }, inspect: session.inspect }).start();
  return { actor, session, logins, codes, context: () => actor.getSnapshot().context };
}

const logIn = { type: 'login.submitted', identifier: ' eater@example.com ', password: ' secret1 ', returnTo: '/profile' } as const;
const answer: AuthResponse = { jwt: 'new-token', user: { id: 12, createdAt: new Date().toISOString() } };
const CHALLENGE: LoginResponse = { twoFactorRequired: true, ticket: 'ticket-1' };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('passwordLogIn (SPEC §2 Log In, §8; issue 23)', () => {
  it('waits at rest', () => {
    const { actor, context } = start();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(context()).toMatchObject({ returnTo: '/', identifier: '', ticket: null, error: null });
  });

  it("logs in with the trimmed identifier ('busy'), the notice read, ignoring further submissions", async () => {
    const { actor, context, logins, session } = start();
    actor.send(logIn);
    expect(actor.getSnapshot().matches('submitting')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(context()).toMatchObject({ returnTo: '/profile', identifier: 'eater@example.com', error: null });
    expect(logins.calls.map((call) => call.input)).toEqual([{ identifier: 'eater@example.com', password: ' secret1 ' }]);
    expect(session.received).toEqual([{ type: 'notice.dismissed' }]);
    actor.send(logIn);
    await nextTick();
    expect(logins.calls).toHaveLength(1);
  });

  it("hands the session to the auth actor, on to 'from' (even for a new account: only social users start at /bmi)", async () => {
    const { actor, logins, session } = start();
    actor.send(logIn);
    logins.last().settle.resolve(answer);
    await nextTick();
    expect(actor.getSnapshot().status).toBe('done');
    expect(session.received.at(-1)).toEqual({ type: 'session.started', response: answer, next: { href: '/profile' } });
  });

  it.each(['//evil.example', 'https://evil.example/', 'profile'])("returns to / when 'from' is %j", async (from) => {
    const { actor, logins, session } = start();
    actor.send({ ...logIn, returnTo: from });
    logins.last().settle.resolve(answer);
    await nextTick();
    expect(session.received.at(-1)).toEqual({ type: 'session.started', response: answer, next: { href: '/' } });
  });

  it("shows the server's message, or 'Login failed', and takes the form again", async () => {
    const { actor, context, logins, session } = start();
    actor.send(logIn);
    logins.last().settle.reject(new Error('Invalid identifier or password'));
    await nextTick();
    expect(actor.getSnapshot().matches('failure')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(context().error).toBe('Invalid identifier or password');

    actor.send(logIn);
    expect(actor.getSnapshot().matches('submitting')).toBe(true);
    expect(context().error).toBeNull();
    logins.last().settle.reject(new Error(''));
    await nextTick();
    expect(context().error).toBe('Login failed');
    expect(session.received).toEqual([{ type: 'notice.dismissed' }, { type: 'notice.dismissed' }]);
  });

  it('a right password with two-factor on starts the second step with the ticket and the return path; nothing goes to the session', async () => {
    const { actor, context, logins, session } = start();
    actor.send(logIn);
    logins.last().settle.resolve(CHALLENGE);
    await nextTick();
    expect(actor.getSnapshot().matches('secondFactor')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(context().ticket).toBe('ticket-1');
    const step = actor.getSnapshot().children.secondFactor;
    expect(step?.getSnapshot().context).toMatchObject({ ticket: 'ticket-1', returnTo: '/profile', auth: session.auth });
    // The password form takes nothing meanwhile.
    actor.send(logIn);
    expect(logins.calls).toHaveLength(1);
    expect(session.received).toEqual([{ type: 'notice.dismissed' }]);
  });

  it('Back from the second step returns to the password form with the identifier typed; a sign-in there ends the step too', async () => {
    const { actor, context, logins, codes, session } = start();
    actor.send(logIn);
    logins.last().settle.resolve(CHALLENGE);
    await nextTick();
    actor.getSnapshot().children.secondFactor?.send({ type: 'twoFactor.cancelled' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(context().identifier).toBe('eater@example.com');

    actor.send(logIn);
    logins.last().settle.resolve({ ...CHALLENGE, ticket: 'ticket-2' });
    await nextTick();
    actor.getSnapshot().children.secondFactor?.send({ type: 'twoFactor.submitted', code: '123456' });
    expect(codes.last().input).toEqual({ ticket: 'ticket-2', code: '123456' });
    codes.last().settle.resolve(answer);
    await nextTick();
    expect(session.received.at(-1)).toEqual({ type: 'session.started', response: answer, next: { href: '/profile' } });
    expect(actor.getSnapshot().children.secondFactor).toBeUndefined();
  });

  it('its own actor posts the trimmed identifier to /api/auth/local and stops the request when the page goes', async () => {
    const network = pendingNetwork();
    const session = recordingAuth();
    const actor = createActor(passwordLogInMachine, { input: { auth: session.auth } }).start();
    actor.send(logIn);
    await network.sent(actor, '/api/auth/local', { identifier: 'eater@example.com', password: ' secret1 ' });
  });
});
