import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import type { AuthResponse } from '../../../server/src/contract/auth';
import type { Session } from '../../../machines/services/session';
import { safeReturnPath } from '../../../machines/rules/returnPath';
import { authSessionMachine, type AuthEvent } from '../../../machines/authSession.machine';

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

const answer = (jwt: string, createdAt = '2025-01-01T00:00:00.000Z'): AuthResponse => ({ jwt, user: { id: 12, createdAt } });

describe('authSession (SPEC §4 Logged in or out, §9)', () => {
  describe('startup', () => {
    it('is logged in with a stored session and touches nothing', () => {
      const { actor, browser, context } = start(member);
      expect(actor.getSnapshot().matches('loggedIn')).toBe(true);
      expect(context()).toEqual({ session: member, notice: null });
      expect(browser).toEqual([]);
    });

    it('is logged out without one', () => {
      const { actor, context } = start();
      expect(actor.getSnapshot().matches('loggedOut')).toBe(true);
      expect(context()).toEqual({ session: null, notice: null });
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
    it('logs in with the stored session and revalidates the routes', () => {
      const { actor, browser, context } = start();
      actor.send({ type: 'session.changed', session: member });
      expect(actor.getSnapshot().matches('loggedIn')).toBe(true);
      expect(context().session).toEqual(member);
      expect(browser).toEqual([['revalidate']]);
    });

    it('logs out when the session is gone', () => {
      const { actor, browser, context } = start(member);
      actor.send({ type: 'session.changed', session: null });
      expect(actor.getSnapshot().matches('loggedOut')).toBe(true);
      expect(context().session).toBeNull();
      expect(browser).toEqual([['revalidate']]);
    });
  });

  describe('the green notice on /login (SPEC §2: shown, then cleared)', () => {
    it('shows the notice on /login, with from, replacing the history entry', () => {
      const { actor, browser, context } = start();
      actor.send({
        type: 'login.requested',
        notice: 'Please log in to proceed with account deletion',
        from: safeReturnPath('/delete-profile'),
      });
      expect(actor.getSnapshot().matches('loggedOut')).toBe(true);
      expect(context()).toEqual({ session: null, notice: 'Please log in to proceed with account deletion' });
      expect(browser).toEqual([['navigate', { to: '/login', search: { from: '/delete-profile' }, replace: true }]]);
    });

    it('keeps the requesting page in history when asked (sign-up under e-mail confirmation)', () => {
      const { browser, actor, context } = start();
      actor.send({ type: 'login.requested', notice: 'Please confirm', replace: false });
      expect(context().notice).toBe('Please confirm');
      expect(browser).toEqual([['navigate', { to: '/login', search: { from: undefined }, replace: false }]]);
    });

    it('stays while the person is on /login and is dropped when they leave', () => {
      const { actor, context } = start();
      actor.send({ type: 'login.requested', notice: 'Social login failed' });
      actor.send({ type: 'location.changed', pathname: '/login' });
      expect(context().notice).toBe('Social login failed');
      actor.send({ type: 'location.changed', pathname: '/signup' });
      expect(context().notice).toBeNull();
    });

    it('is dropped once the Log In form is submitted', () => {
      const { actor, browser, context } = start();
      actor.send({ type: 'login.requested', notice: 'Social login failed' });
      actor.send({ type: 'notice.dismissed' });
      expect(actor.getSnapshot().matches('loggedOut')).toBe(true);
      expect(context().notice).toBeNull();
      expect(browser).toHaveLength(1);
    });

    it('is shown to a member too, who stays logged in, and dropped the same way', () => {
      const { actor, browser, context } = start(member);
      actor.send({ type: 'login.requested', notice: 'Invalid social login response' });
      expect(actor.getSnapshot().matches('loggedIn')).toBe(true);
      expect(context()).toEqual({ session: member, notice: 'Invalid social login response' });
      expect(browser).toEqual([['navigate', { to: '/login', search: { from: undefined }, replace: true }]]);

      actor.send({ type: 'location.changed', pathname: '/login' });
      expect(context().notice).toBe('Invalid social login response');
      actor.send({ type: 'location.changed', pathname: '/profile' });
      expect(context().notice).toBeNull();
    });
  });

  describe('a sign-in flow started a session', () => {
    const now = Date.parse('2025-06-01T12:00:00.000Z');
    const createdAgo = (ms: number) => new Date(now - ms).toISOString();

    it.each([
      [createdAgo(59_999), ['navigate', { to: '/bmi', replace: true }]],
      [createdAgo(60_000), ['navigate', { href: '/profile', replace: true }]],
    ])('social or passkey: stores it, logs in and, for an account created at %s, goes %j', (createdAt, navigation) => {
      vi.spyOn(Date, 'now').mockReturnValue(now);
      const { actor, browser, context } = start();
      actor.send({ type: 'login.requested', notice: 'Social login failed' });
      browser.length = 0;
      actor.send({ type: 'session.started', response: answer('social-token', createdAt), returnTo: safeReturnPath('/profile') });
      expect(actor.getSnapshot().matches('loggedIn')).toBe(true);
      expect(context()).toEqual({ session: { jwt: 'social-token', userId: '12' }, notice: null });
      expect(browser).toEqual([['persist', { jwt: 'social-token', userId: '12' }], navigation]);
    });

    it('Sign Up or Log In: stores it, logs in and goes on as the form asks, even for a new account', () => {
      const { actor, browser, context } = start();
      actor.send({ type: 'session.started', response: answer('form-token', new Date().toISOString()), next: { to: '/profile' } });
      expect(actor.getSnapshot().matches('loggedIn')).toBe(true);
      expect(context()).toEqual({ session: { jwt: 'form-token', userId: '12' }, notice: null });
      expect(browser).toEqual([
        ['persist', { jwt: 'form-token', userId: '12' }],
        ['navigate', { to: '/profile' }],
      ]);
    });
  });

  describe('logged in', () => {
    it('Log Out forgets the session, logs out and revalidates the routes, going nowhere itself', () => {
      const { actor, browser, context } = start(member);
      actor.send({ type: 'logout' });
      expect(actor.getSnapshot().matches('loggedOut')).toBe(true);
      expect(context()).toEqual({ session: null, notice: null });
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
      expect(actor.getSnapshot().matches('loggedOut')).toBe(true);
      expect(context()).toEqual({ session: null, notice });
      expect(browser).toStrictEqual([['forget'], ['navigate', { to: '/login', replace }]]);
    });

    it('keeps the member with the token that replaced the revoked one', () => {
      const { actor, browser, context } = start(member);
      actor.send({ type: 'session.tokenRenewed', jwt: 'renewed-token' });
      expect(actor.getSnapshot().matches('loggedIn')).toBe(true);
      expect(context().session).toEqual({ jwt: 'renewed-token', userId: '7' });
      expect(browser).toEqual([['persist', { jwt: 'renewed-token', userId: '7' }]]);
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
    expect(actor.getSnapshot().matches('loggedOut')).toBe(true);
    expect(context()).toEqual({ session: null, notice: null });
    expect(browser).toEqual([]);
  });

  it.each([[member], [null]])('a password reset (session %j) forgets any token and shows /login with its notice', (session) => {
    const { actor, browser, context } = start(session);
    actor.send({ type: 'password.reset' });
    expect(actor.getSnapshot().matches('loggedOut')).toBe(true);
    expect(context()).toEqual({ session: null, notice: 'Your password has been reset. You can now log in with your new password.' });
    expect(browser).toStrictEqual([['forget'], ['navigate', { to: '/login', replace: undefined }]]);
  });
});
