import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AuthResponse, RegisterPayload, RegisterResponse } from '../../../server/src/contract/auth';
import { signUpMachine, signUpNotices } from '../../../machines/signUp.machine';
import { deferredCalls } from '../../support/deferred';
import { nextTick, pendingNetwork, recordingAuth } from './machineTestKit';

/** The form with POST /api/auth/local/register as a double, and a real auth actor recording what it is told. */
function start() {
  const registrations = deferredCalls<RegisterPayload, RegisterResponse>();
  const session = recordingAuth();
  const machine = signUpMachine.provide({
    actors: { register: fromPromise<RegisterResponse, RegisterPayload>(({ input }) => registrations.handler(input)) },
  });
  const actor = createActor(machine, { input: { auth: session.auth }, inspect: session.inspect }).start();
  return { actor, session, registrations, context: () => actor.getSnapshot().context };
}

const signUp = { type: 'signup.submitted', username: ' meateater ', email: ' eater@example.com ', password: ' secret1 ' } as const;
const answer: AuthResponse = { jwt: 'new-token', user: { id: 12, createdAt: '2025-01-01T00:00:00.000Z' } };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('signUp (SPEC §2 Sign Up, §5 Sign up, §8)', () => {
  it('waits at rest', () => {
    const { actor, context } = start();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(context().error).toBeNull();
  });

  it.each([
    [{ username: ' ' }, 'Please fill in all required fields.'],
    [{ email: '' }, 'Please fill in all required fields.'],
    [{ password: ' ' }, 'Please fill in all required fields.'],
    [{ email: 'eater@example' }, 'Please enter a valid email address.'],
    [{ username: ' ab ' }, 'Username must be at least 3 characters'],
  ])('refuses %j with %j and sends nothing', (fields, message) => {
    const { actor, context, registrations, session } = start();
    actor.send({ ...signUp, ...fields });
    expect(actor.getSnapshot().matches('failure')).toBe(true);
    expect(context().error).toBe(message);
    // Still refused from the failure, with the new reason.
    actor.send({ ...signUp, username: '' });
    expect(actor.getSnapshot().matches('failure')).toBe(true);
    expect(context().error).toBe('Please fill in all required fields.');
    expect(registrations.calls).toEqual([]);
    expect(session.received).toEqual([]);
  });

  it("signs up with the trimmed name and e-mail ('busy'), clearing the error and ignoring further submissions", async () => {
    const { actor, context, registrations } = start();
    actor.send({ ...signUp, email: '' });
    actor.send(signUp);
    expect(actor.getSnapshot().matches('submitting')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(context().error).toBeNull();
    expect(registrations.calls.map((call) => call.input)).toEqual([
      { username: 'meateater', email: 'eater@example.com', password: ' secret1 ' },
    ]);
    actor.send(signUp);
    await nextTick();
    expect(registrations.calls).toHaveLength(1);
  });

  it('hands the session to the auth actor, on to /profile (even for an account made this moment)', async () => {
    const { actor, registrations, session } = start();
    actor.send(signUp);
    registrations.last().settle.resolve(answer);
    await nextTick();
    expect(actor.getSnapshot().status).toBe('done');
    expect(session.received).toEqual([{ type: 'session.started', response: answer, next: { to: '/profile' } }]);
  });

  it('under e-mail confirmation (no jwt) asks the auth actor to show /login with the confirmation notice, keeping /signup in history', async () => {
    const { actor, registrations, session } = start();
    actor.send(signUp);
    registrations.last().settle.resolve({ user: answer.user });
    await nextTick();
    expect(actor.getSnapshot().status).toBe('done');
    expect(signUpNotices.confirmEmail).toBe(
      'Your account has been created. Please confirm your email address using the link we sent you, then log in.',
    );
    expect(session.received).toEqual([{ type: 'login.requested', notice: signUpNotices.confirmEmail, replace: false }]);
  });

  it("shows the server's message, or 'Registration failed', and takes the form again", async () => {
    const { actor, context, registrations, session } = start();
    actor.send(signUp);
    registrations.last().settle.reject(new Error('Email or Username are already taken'));
    await nextTick();
    expect(actor.getSnapshot().matches('failure')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(context().error).toBe('Email or Username are already taken');

    actor.send(signUp);
    expect(actor.getSnapshot().matches('submitting')).toBe(true);
    expect(context().error).toBeNull();
    registrations.last().settle.reject(new Error(''));
    await nextTick();
    expect(context().error).toBe('Registration failed');
    expect(session.received).toEqual([]);
  });

  it('its own actor posts the trimmed fields to /api/auth/local/register and stops the request when the page goes', async () => {
    const network = pendingNetwork();
    const session = recordingAuth();
    const actor = createActor(signUpMachine, { input: { auth: session.auth } }).start();
    actor.send(signUp);
    await network.sent(actor, '/api/auth/local/register', { username: 'meateater', email: 'eater@example.com', password: ' secret1 ' });
  });
});
