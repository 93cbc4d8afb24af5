import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import type { AuthResponse, RegisterResponse } from '../../../server/src/contract/auth';
import { login, register } from '../../../machines/services/auth';
import { ApiError } from '../../../machines/services/errors';
import type { LoginResponse } from '../../../server/src/contract/twoFactor';
import type { Session } from '../../../machines/services/session';
import { safeReturnPath } from '../../../machines/rules/returnPath';
import { authSessionMachine, type AuthEvent } from '../../../machines/authSession.machine';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick } from './machineTestKit';

// POST /api/auth/local/register and POST /api/auth/local (SPEC §7) are doubles; the machine's own actors call them.
vi.mock('../../../machines/services/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../machines/services/auth')>()),
  register: vi.fn(),
  login: vi.fn(),
}));

let registration: Deferred<RegisterResponse>;
let loginRequest: Deferred<LoginResponse>;
let secondStep: Deferred<LoginResponse>;

beforeEach(() => {
  registration = deferred<RegisterResponse>();
  loginRequest = deferred<LoginResponse>();
  secondStep = deferred<LoginResponse>();
  vi.mocked(register).mockReset().mockReturnValue(registration.promise);
  vi.mocked(login).mockReset().mockReturnValue(loginRequest.promise);
});

const member: Session = { jwt: 'old-token', userId: '7' };

/**
 * The auth actor with the browser (storage, router) as one ordered log: what was stored, forgotten,
 * navigated to and revalidated, in the order the machine did it.
 */
function start(session: Session | null = null) {
  const browser: unknown[][] = [];
  const machine = authSessionMachine.provide({
    actions: {
      persistSession: (_, stored) => browser.push(['persist', stored]),
      forgetSession: () => browser.push(['forget']),
      navigate: (_, request) => browser.push(['navigate', request]),
      revalidateRoutes: () => browser.push(['revalidate']),
    },
  });
  const actor = createActor(machine, { input: { session } }).start();
  const context = () => actor.getSnapshot().context;
  return { actor, browser, context };
}

const signUp = { type: 'signup.submitted', username: ' meateater ', email: ' eater@example.com ', password: ' secret1 ' } as const;
const logIn = { type: 'login.submitted', identifier: ' eater@example.com ', password: ' secret1 ', returnTo: '/profile' } as const;
const answer = (jwt: string, createdAt = '2025-01-01T00:00:00.000Z'): AuthResponse => ({ jwt, user: { id: 12, createdAt } });

describe('authSession (SPEC §2 Sign Up and Log In, §4 Logged in or out, §5 Sign up, §8, §9)', () => {
  describe('startup', () => {
    it('is logged in with a stored session and touches nothing', () => {
      const { actor, browser, context } = start(member);
      expect(actor.getSnapshot().matches('loggedIn')).toBe(true);
      expect(context()).toEqual({ session: member, returnTo: '/', error: null, notice: null, ticket: null, identifier: '' });
      expect(browser).toEqual([]);
    });

    it('is logged out on the Log In form without one', () => {
      const { actor, context } = start();
      expect(actor.getSnapshot().matches({ loggedOut: 'idle' })).toBe(true);
      expect(actor.getSnapshot().hasTag('busy')).toBe(false);
      expect(context().session).toBeNull();
    });

    it('hears storage changes and the settled route from the watchers the app provides', () => {
      const watchers: Array<(event: AuthEvent) => void> = [];
      const watch = fromCallback<AuthEvent>(({ sendBack }) => {
        watchers.push(sendBack);
      });
      const actor = createActor(authSessionMachine.provide({ actors: { watchSession: watch, watchLocation: watch } }), {
        input: { session: null },
      }).start();
      expect(watchers).toHaveLength(2);
      actor.send({ type: 'login.requested', notice: 'Social login failed' });
      watchers[1]({ type: 'location.changed', pathname: '/' });
      expect(actor.getSnapshot().context.notice).toBeNull();
      watchers[0]({ type: 'session.changed', session: member });
      expect(actor.getSnapshot().matches('loggedIn')).toBe(true);
    });
  });

  describe('storage changes (another tab)', () => {
    it('logs in with the stored session, clearing the form, and revalidates the routes', async () => {
      const { actor, browser, context } = start();
      actor.send(logIn);
      loginRequest.reject(new Error('Invalid identifier or password'));
      await nextTick();
      actor.send({ type: 'session.changed', session: member });
      expect(actor.getSnapshot().matches('loggedIn')).toBe(true);
      expect(context()).toMatchObject({ session: member, error: null });
      expect(browser).toEqual([['revalidate']]);
    });

    it('logs out when the session is gone, with a clean form', async () => {
      const { actor, browser, context } = start();
      actor.send(logIn);
      loginRequest.reject(new Error('Invalid identifier or password'));
      await nextTick();
      actor.send({ type: 'session.changed', session: null });
      expect(actor.getSnapshot().matches({ loggedOut: 'idle' })).toBe(true);
      expect(context().error).toBeNull();
      expect(browser).toEqual([['revalidate']]);

      const signedIn = start(member);
      signedIn.actor.send({ type: 'session.changed', session: null });
      expect(signedIn.actor.getSnapshot().matches({ loggedOut: 'idle' })).toBe(true);
      expect(signedIn.context().session).toBeNull();
    });
  });

  describe('Sign Up', () => {
    it.each([
      [{ username: ' ' }, 'Please fill in all required fields.'],
      [{ email: '' }, 'Please fill in all required fields.'],
      [{ password: ' ' }, 'Please fill in all required fields.'],
      [{ email: 'eater@example' }, 'Please enter a valid email address.'],
      [{ username: ' ab ' }, 'Username must be at least 3 characters'],
    ])('refuses %j with %j, drops the notice and sends nothing', (fields, message) => {
      const { actor, context } = start();
      actor.send({ type: 'login.requested', notice: 'Social login failed' });
      actor.send({ ...signUp, ...fields });
      expect(actor.getSnapshot().matches({ loggedOut: 'failure' })).toBe(true);
      expect(context()).toMatchObject({ error: message, notice: null });
      expect(register).not.toHaveBeenCalled();
    });

    it("signs up with the trimmed name and e-mail ('Signing Up...', busy), ignoring further submissions", async () => {
      const { actor, context } = start();
      actor.send({ ...signUp, email: '' });
      actor.send(signUp);
      expect(actor.getSnapshot().matches({ loggedOut: 'signingUp' })).toBe(true);
      expect(actor.getSnapshot().hasTag('busy')).toBe(true);
      expect(context().error).toBeNull();
      await nextTick();
      expect(register).toHaveBeenCalledWith(
        { username: 'meateater', email: 'eater@example.com', password: ' secret1 ' },
        { signal: expect.any(AbortSignal) },
      );

      actor.send(signUp);
      actor.send(logIn);
      actor.send({ type: 'location.changed', pathname: '/signup' });
      expect(actor.getSnapshot().matches({ loggedOut: 'signingUp' })).toBe(true);
      await nextTick();
      expect(register).toHaveBeenCalledTimes(1);
      expect(login).not.toHaveBeenCalled();
    });

    it('stores the token and user id, logs in and goes to /profile', async () => {
      const { actor, browser, context } = start();
      actor.send(signUp);
      registration.resolve(answer('new-token'));
      await nextTick();
      expect(actor.getSnapshot().matches('loggedIn')).toBe(true);
      expect(context().session).toEqual({ jwt: 'new-token', userId: '12' });
      expect(browser).toEqual([
        ['persist', { jwt: 'new-token', userId: '12' }],
        ['navigate', { to: '/profile' }],
      ]);
    });

    it('under e-mail confirmation (no jwt) stores nothing and shows /login with the confirmation notice', async () => {
      const { actor, browser, context } = start();
      actor.send(signUp);
      registration.resolve({ user: { id: 12, createdAt: '2025-01-01T00:00:00.000Z' } });
      await nextTick();
      expect(actor.getSnapshot().matches({ loggedOut: 'idle' })).toBe(true);
      expect(context()).toMatchObject({
        session: null,
        error: null,
        notice: 'Your account has been created. Please confirm your email address using the link we sent you, then log in.',
      });
      expect(browser).toEqual([['navigate', { to: '/login' }]]);
    });

    it("shows the server's message, or 'Registration failed', and takes the form again", async () => {
      const { actor, browser, context } = start();
      actor.send(signUp);
      registration.reject(new Error('Email or Username are already taken'));
      await nextTick();
      expect(actor.getSnapshot().matches({ loggedOut: 'failure' })).toBe(true);
      expect(actor.getSnapshot().hasTag('busy')).toBe(false);
      expect(context().error).toBe('Email or Username are already taken');

      vi.mocked(register).mockRejectedValue(new Error(''));
      actor.send(signUp);
      expect(context().error).toBeNull();
      await nextTick();
      expect(context().error).toBe('Registration failed');
      expect(browser).toEqual([]);
    });
  });

  describe('Log In', () => {
    it("logs in with the trimmed identifier ('Logging In...', busy), clearing the messages and ignoring further submissions", async () => {
      const { actor, context } = start();
      actor.send({ ...signUp, email: '' });
      actor.send(logIn);
      expect(actor.getSnapshot().matches({ loggedOut: 'loggingIn' })).toBe(true);
      expect(actor.getSnapshot().hasTag('busy')).toBe(true);
      expect(context()).toMatchObject({ error: null, notice: null, returnTo: '/profile' });
      await nextTick();
      expect(login).toHaveBeenCalledWith({ identifier: 'eater@example.com', password: ' secret1 ' }, { signal: expect.any(AbortSignal) });

      actor.send(logIn);
      actor.send(signUp);
      expect(actor.getSnapshot().matches({ loggedOut: 'loggingIn' })).toBe(true);
      await nextTick();
      expect(login).toHaveBeenCalledTimes(1);
      expect(register).not.toHaveBeenCalled();
    });

    it("stores the session and returns to 'from', without replacing the history entry", async () => {
      const { actor, browser, context } = start();
      actor.send({ type: 'login.requested', notice: 'Your session has expired. Please log in again.' });
      browser.length = 0;
      actor.send(logIn);
      loginRequest.resolve(answer('new-token', new Date().toISOString()));
      await nextTick();
      expect(actor.getSnapshot().matches('loggedIn')).toBe(true);
      expect(context()).toEqual({
        session: { jwt: 'new-token', userId: '12' },
        returnTo: '/profile',
        error: null,
        notice: null,
        ticket: null,
        // Forgotten once logged in.
        identifier: '',
      });
      // A local login goes back to 'from' even for a new account: only social users start at /bmi.
      expect(browser).toEqual([
        ['persist', { jwt: 'new-token', userId: '12' }],
        ['navigate', { href: '/profile' }],
      ]);
    });

    it.each(['//evil.example', 'https://evil.example/', 'profile'])("returns to / when 'from' is %j", async (from) => {
      const { actor, browser } = start();
      actor.send({ ...logIn, returnTo: from });
      loginRequest.resolve(answer('new-token'));
      await nextTick();
      expect(browser.at(-1)).toEqual(['navigate', { href: '/' }]);
    });

    it("shows the server's message, or 'Login failed'", async () => {
      const { actor, context } = start();
      actor.send(logIn);
      loginRequest.reject(new Error('Invalid identifier or password'));
      await nextTick();
      expect(actor.getSnapshot().matches({ loggedOut: 'failure' })).toBe(true);
      expect(context().error).toBe('Invalid identifier or password');

      vi.mocked(login).mockRejectedValue(new Error(''));
      actor.send(logIn);
      await nextTick();
      expect(context().error).toBe('Login failed');
    });

    it('keeps its error on its page only: another page starts clean', async () => {
      const { actor, context } = start();
      actor.send(logIn);
      loginRequest.reject(new Error('Invalid identifier or password'));
      await nextTick();
      actor.send({ type: 'location.changed', pathname: '/signup' });
      expect(actor.getSnapshot().matches({ loggedOut: 'idle' })).toBe(true);
      expect(context().error).toBeNull();
    });
  });

  describe('Log In with two-factor on (issue 23)', () => {
    const CHALLENGE: LoginResponse = { twoFactorRequired: true, ticket: 'ticket-1' };

    async function atSecondStep() {
      const started = start();
      started.actor.send(logIn);
      loginRequest.resolve(CHALLENGE);
      await nextTick();
      // The second step goes through the same call, with the ticket and the code.
      vi.mocked(login).mockReset().mockReturnValue(secondStep.promise);
      return started;
    }

    it('a right password asks for the code: nothing stored yet, the ticket held', async () => {
      const { actor, browser, context } = await atSecondStep();
      expect(actor.getSnapshot().matches({ loggedOut: 'secondFactor' })).toBe(true);
      expect(actor.getSnapshot().hasTag('busy')).toBe(false);
      expect(context()).toEqual({
        session: null,
        returnTo: '/profile',
        error: null,
        notice: null,
        ticket: 'ticket-1',
        identifier: 'eater@example.com',
      });
      expect(browser).toEqual([]);
    });

    it("sends the ticket and the trimmed code ('busy'), then stores the session and returns to 'from'", async () => {
      const { actor, browser, context } = await atSecondStep();
      actor.send({ type: 'twoFactor.submitted', code: ' 123456 ' });
      expect(actor.getSnapshot().matches({ loggedOut: 'loggingIn' })).toBe(true);
      expect(actor.getSnapshot().hasTag('busy')).toBe(true);
      await nextTick();
      expect(login).toHaveBeenCalledWith({ ticket: 'ticket-1', code: '123456' }, { signal: expect.any(AbortSignal) });
      actor.send({ type: 'twoFactor.submitted', code: '1' });
      expect(login).toHaveBeenCalledTimes(1);
      secondStep.resolve(answer('two-factor-token'));
      await nextTick();
      expect(actor.getSnapshot().matches('loggedIn')).toBe(true);
      expect(context()).toMatchObject({
        session: { jwt: 'two-factor-token', userId: '12' },
        returnTo: '/profile',
        error: null,
        notice: null,
      });
      expect(browser).toEqual([
        ['persist', { jwt: 'two-factor-token', userId: '12' }],
        ['navigate', { href: '/profile' }],
      ]);
    });

    it("a wrong code or a void ticket stays on the second step with the server's message, or 'Login failed'; a new code clears it", async () => {
      const { actor, context } = await atSecondStep();
      actor.send({ type: 'twoFactor.submitted', code: '000000' });
      secondStep.reject(new ApiError('That code is not right. Try again.', 400));
      await nextTick();
      expect(actor.getSnapshot().matches({ loggedOut: 'secondFactor' })).toBe(true);
      expect(context()).toMatchObject({ error: 'That code is not right. Try again.', ticket: 'ticket-1', session: null });
      vi.mocked(login).mockRejectedValue(new ApiError('', 429));
      actor.send({ type: 'twoFactor.submitted', code: '111111' });
      expect(context().error).toBeNull();
      await nextTick();
      expect(context()).toMatchObject({ error: 'Login failed', ticket: 'ticket-1' });
      vi.mocked(login).mockRejectedValue(new ApiError('Your log-in has expired. Please log in again.', 401));
      actor.send({ type: 'twoFactor.submitted', code: '222222' });
      await nextTick();
      expect(actor.getSnapshot().matches({ loggedOut: 'secondFactor' })).toBe(true);
      expect(context().error).toBe('Your log-in has expired. Please log in again.');
    });

    it('Back, or another page, returns to the password form; the next log-in starts without the old ticket', async () => {
      const { actor, context } = await atSecondStep();
      actor.send({ type: 'twoFactor.cancelled' });
      expect(actor.getSnapshot().matches({ loggedOut: 'idle' })).toBe(true);
      // The form comes back with the identifier typed before (trimmed as it was sent).
      expect(context().identifier).toBe('eater@example.com');

      vi.mocked(login).mockReset().mockReturnValue(loginRequest.promise);
      const other = await atSecondStep();
      expect(other.actor.getSnapshot().matches({ loggedOut: 'secondFactor' })).toBe(true);
      other.actor.send({ type: 'location.changed', pathname: '/signup' });
      expect(other.actor.getSnapshot().matches({ loggedOut: 'idle' })).toBe(true);

      // A wrong password now is a password failure, not a refused code.
      vi.mocked(login).mockReset().mockRejectedValue(new Error('Invalid identifier or password'));
      actor.send(logIn);
      expect(context().ticket).toBeNull();
      await nextTick();
      expect(login).toHaveBeenCalledWith({ identifier: 'eater@example.com', password: ' secret1 ' }, { signal: expect.any(AbortSignal) });
      expect(actor.getSnapshot().matches({ loggedOut: 'failure' })).toBe(true);
      expect(context().error).toBe('Invalid identifier or password');
    });
  });

  describe('the green notice on /login (SPEC §2: shown, then cleared)', () => {
    it('shows the notice on /login, with from, replacing the history entry, and resets the form', async () => {
      const { actor, browser, context } = start();
      actor.send(logIn);
      loginRequest.reject(new Error('Invalid identifier or password'));
      await nextTick();
      actor.send({
        type: 'login.requested',
        notice: 'Please log in to proceed with account deletion',
        from: safeReturnPath('/delete-profile'),
      });
      expect(actor.getSnapshot().matches({ loggedOut: 'idle' })).toBe(true);
      expect(context()).toMatchObject({ error: null, notice: 'Please log in to proceed with account deletion' });
      expect(browser).toEqual([['navigate', { to: '/login', search: { from: '/delete-profile' }, replace: true }]]);
    });

    it('abandons a login under way for a fresh form under the notice', async () => {
      const { actor, browser, context } = start();
      actor.send(logIn);
      actor.send({ type: 'login.requested', notice: 'Social login failed' });
      expect(actor.getSnapshot().matches({ loggedOut: 'idle' })).toBe(true);
      expect(actor.getSnapshot().hasTag('busy')).toBe(false);
      loginRequest.resolve(answer('late-token'));
      await nextTick();
      expect(actor.getSnapshot().matches({ loggedOut: 'idle' })).toBe(true);
      expect(context().session).toBeNull();
      expect(browser).toEqual([['navigate', { to: '/login', search: { from: undefined }, replace: true }]]);
    });

    it('stays while the person is on /login and is dropped when they leave', () => {
      const { actor, context } = start();
      actor.send({ type: 'login.requested', notice: 'Social login failed' });
      actor.send({ type: 'location.changed', pathname: '/login' });
      expect(context().notice).toBe('Social login failed');
      actor.send({ type: 'location.changed', pathname: '/signup' });
      expect(context().notice).toBeNull();
    });

    it('is shown to a member too, who stays logged in, and dropped the same way', () => {
      const { actor, browser, context } = start(member);
      actor.send({ type: 'login.requested', notice: 'Invalid social login response' });
      expect(actor.getSnapshot().matches('loggedIn')).toBe(true);
      expect(context()).toMatchObject({ session: member, notice: 'Invalid social login response' });
      expect(browser).toEqual([['navigate', { to: '/login', search: { from: undefined }, replace: true }]]);

      actor.send({ type: 'location.changed', pathname: '/login' });
      expect(context().notice).toBe('Invalid social login response');
      actor.send({ type: 'location.changed', pathname: '/profile' });
      expect(context().notice).toBeNull();
    });
  });

  describe('a social sign-in or callback started a session', () => {
    const now = Date.parse('2025-06-01T12:00:00.000Z');
    const createdAgo = (ms: number) => new Date(now - ms).toISOString();

    it.each([
      [createdAgo(59_999), ['navigate', { to: '/bmi', replace: true }]],
      [createdAgo(60_000), ['navigate', { href: '/profile', replace: true }]],
    ])('stores it, logs in and, for an account created at %s, goes %j', (createdAt, navigation) => {
      vi.spyOn(Date, 'now').mockReturnValue(now);
      const { actor, browser, context } = start();
      actor.send({ type: 'login.requested', notice: 'Social login failed' });
      browser.length = 0;
      actor.send({ type: 'session.started', response: answer('social-token', createdAt), returnTo: safeReturnPath('/profile') });
      expect(actor.getSnapshot().matches('loggedIn')).toBe(true);
      expect(context()).toMatchObject({ session: { jwt: 'social-token', userId: '12' }, notice: null, error: null });
      expect(browser).toEqual([['persist', { jwt: 'social-token', userId: '12' }], navigation]);
    });

    it('clears a form error as it logs in', async () => {
      const { actor, context } = start();
      actor.send(logIn);
      loginRequest.reject(new Error('Invalid identifier or password'));
      await nextTick();
      actor.send({ type: 'session.started', response: answer('social-token'), returnTo: safeReturnPath('/') });
      expect(context().error).toBeNull();
    });
  });

  describe('logged in', () => {
    it('Log Out forgets the session, logs out and revalidates the routes, going nowhere itself', () => {
      const { actor, browser, context } = start(member);
      actor.send({ type: 'logout' });
      expect(actor.getSnapshot().matches({ loggedOut: 'idle' })).toBe(true);
      expect(context().session).toBeNull();
      expect(context().notice).toBeNull();
      expect(browser).toEqual([['forget'], ['revalidate']]);
    });

    it.each<[AuthEvent, string, true | undefined]>([
      [{ type: 'session.expired' }, 'Your session has expired. Please log in again.', undefined],
      [{ type: 'session.signedOutElsewhere' }, 'You were signed out from another device.', undefined],
      [{ type: 'account.deleted' }, 'Your account has been deleted successfully.', true],
      [{ type: 'session.revokedEverywhere' }, 'You have been logged out of all devices.', true],
      [{ type: 'session.tokenRenewed', jwt: null }, 'Your session has expired. Please log in again.', undefined],
    ])('%j forgets the token and user id, then shows /login with %j', (event, notice, replace) => {
      const { actor, browser, context } = start(member);
      actor.send(event);
      expect(actor.getSnapshot().matches({ loggedOut: 'idle' })).toBe(true);
      expect(context()).toMatchObject({ session: null, notice, error: null });
      expect(browser).toStrictEqual([['forget'], ['navigate', { to: '/login', replace }]]);
    });

    it('keeps the member with the token that replaced the revoked one', () => {
      const { actor, browser, context } = start(member);
      actor.send({ type: 'session.tokenRenewed', jwt: 'renewed-token' });
      expect(actor.getSnapshot().matches('loggedIn')).toBe(true);
      expect(context().session).toEqual({ jwt: 'renewed-token', userId: '7' });
      expect(browser).toEqual([['persist', { jwt: 'renewed-token', userId: '7' }]]);
    });

    it('ignores a second Log In or Sign Up', async () => {
      const { actor } = start(member);
      actor.send(logIn);
      actor.send(signUp);
      expect(actor.getSnapshot().matches('loggedIn')).toBe(true);
      await nextTick();
      expect(login).not.toHaveBeenCalled();
      expect(register).not.toHaveBeenCalled();
    });
  });

  it.each<AuthEvent>([
    { type: 'logout' },
    { type: 'session.expired' },
    { type: 'session.signedOutElsewhere' },
    { type: 'account.deleted' },
    { type: 'session.revokedEverywhere' },
    { type: 'session.tokenRenewed', jwt: 'renewed-token' },
  ])('logged out, %j changes nothing', (event) => {
    const { actor, browser, context } = start();
    actor.send(event);
    expect(actor.getSnapshot().matches({ loggedOut: 'idle' })).toBe(true);
    expect(context()).toEqual({ session: null, returnTo: '/', error: null, notice: null, ticket: null, identifier: '' });
    expect(browser).toEqual([]);
  });

  it.each([[member], [null]])('a password reset (session %j) forgets any token and shows /login with its notice', (session) => {
    const { actor, browser, context } = start(session);
    actor.send({ type: 'password.reset' });
    expect(actor.getSnapshot().matches({ loggedOut: 'idle' })).toBe(true);
    expect(context()).toMatchObject({ session: null, notice: 'Your password has been reset. You can now log in with your new password.' });
    expect(browser).toStrictEqual([['forget'], ['navigate', { to: '/login', replace: undefined }]]);
  });
});
