import { act, screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { SESSION_KEYS } from '../../machines/services/session';
import { see } from './pathTests';

/** The performers and screen checks several flows' path tests share. */

/** Where a check looks: a region, a dialog, or the whole document. */
export type Scope = () => HTMLElement;
export const wholePage: Scope = () => document.body;

/** A page that knows where its router is. */
type Routed = { router: { state: { location: { pathname: string } } } };

/**
 * A `time.passedNs` performer, under fake timers: a moment before the spec's `ms` nothing has
 * changed yet (`stillShown` checks what is still there), then the time is up.
 */
export function timePasses<Page>(ms: number, stillShown: (page: Page) => unknown) {
  return async (page: Page) => {
    await act(() => vi.advanceTimersByTimeAsync(ms - 1));
    stillShown(page);
    await act(() => vi.advanceTimersByTimeAsync(1));
  };
}

/** `time.passedNs` for a notice the spec shows for `ms` in the scope's status line. */
export const noticeShownFor = <Page>(ms: number, scope: (page: Page) => HTMLElement, notice: string) =>
  timePasses<Page>(ms, (page) => expect(within(scope(page)).getByRole('status').textContent).toBe(notice));

/** The scope's alert, word for word; none when `alert` is null or undefined. */
export const seeAlert = (scope: Scope, alert?: string | null) =>
  see(alert ? `the alert '${alert}'` : 'no alert', () =>
    expect(within(scope()).queryByRole('alert')?.textContent ?? null).toBe(alert ?? null),
  );

/** The scope's status line (the green notice), word for word; none when `notice` is null or undefined. */
export const seeNotice = (scope: Scope, notice?: string | null) =>
  see(notice ? `the notice '${notice}'` : 'no notice', () =>
    expect(within(scope()).queryByRole('status')?.textContent ?? null).toBe(notice ?? null),
  );

export async function seeMessages(scope: Scope, { alert, notice }: { alert?: string | null; notice?: string | null }) {
  await seeAlert(scope, alert);
  await seeNotice(scope, notice);
}

/** A submit button: its `busy` label and disabled while the flow works, else its `idle` label and enabled. */
export const seeButton = (scope: Scope, { idle, busy }: { idle: string; busy: string }, working: boolean) =>
  see(working ? `the button '${busy}' disabled` : `the button '${idle}' enabled`, () =>
    expect((within(scope()).getByRole('button', { name: working ? busy : idle }) as HTMLButtonElement).disabled).toBe(working),
  );

export const seePath = (page: Routed, pathname: string) =>
  see(pathname === '/login' ? 'the /login page' : `the page ${pathname}`, () => expect(page.router.state.location.pathname).toBe(pathname));

/** /login with its heading and the green notice the flow left there. */
export async function seeLoginPage(page: Routed, notice: string) {
  await seePath(page, '/login');
  await see("the heading 'Log In'", () => screen.getByRole('heading', { name: 'Log In' }));
  await see(`the notice '${notice}'`, () => expect(screen.getByRole('status').textContent).toBe(notice));
}

const nav = () => within(screen.getByRole('navigation', { name: 'Main' }));

/** A member's bar (Profile, Log Out) and `jwt` stored. A redirect may still be re-rendering the bar: wait for all of it. */
export async function seeLoggedIn(jwt: string | undefined) {
  await see("the bar's 'Log Out' and 'Profile'", () => {
    nav().getByRole('button', { name: 'Log Out' });
    nav().getByRole('link', { name: 'Profile' });
  });
  expect(nav().queryByRole('link', { name: 'Log In' })).toBeNull();
  expect(nav().queryByRole('link', { name: 'Sign Up' })).toBeNull();
  expect(localStorage.getItem(SESSION_KEYS.jwt)).toBe(jwt);
}

/** A visitor's bar (Log In, Sign Up) and nothing stored. */
export async function seeLoggedOut() {
  await see("the bar's 'Log In' and 'Sign Up'", () => {
    nav().getByRole('link', { name: 'Log In' });
    nav().getByRole('link', { name: 'Sign Up' });
  });
  expect(nav().queryByRole('button', { name: 'Log Out' })).toBeNull();
  expect(nav().queryByRole('link', { name: 'Profile' })).toBeNull();
  expect(localStorage.getItem(SESSION_KEYS.jwt)).toBeNull();
  expect(localStorage.getItem(SESSION_KEYS.userId)).toBeNull();
}

/** What a screen shows for the model event that led there, e.g. the message of each invalid submission. */
export function shownFor<T>(table: Readonly<Record<string, T | undefined>>, via: string): T {
  const shown = table[via];
  if (shown === undefined) throw new Error(`nothing to show for ${via}`);
  return shown;
}
