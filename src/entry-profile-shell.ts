/**
 * The script of /profile, inline in its HTML in place of the app's own, with the app's entry in
 * data-src (server/src/prerender/html.ts; the page's CSP allows it by its hash). The server cannot
 * know who is signed in (the session is in localStorage, SPEC §3), so that HTML holds no member
 * data. This script, a few KB built apart from the app (vite.config.ts, `--mode profile-shell`),
 * asks for the profile with the stored token as soon as the HTML is read, paints the page from the
 * answer (src/app/profileShell.ts), and only then starts the app, as public/app-loader.js
 * does for the public pages. The app reuses that answer (src/app/currentUser.ts) and replaces the
 * painted page once its own is ready (src/main.tsx). Without a session, or when the request fails,
 * the app starts at once and does what it always did.
 */
import type { User } from '../server/src/contract/users';
import { SESSION_KEYS } from '../machines/services/session';
import { profileShell } from './app/profileShell';
import type { EarlyProfile } from './app/currentUser';

/** The app starts at the latest this long after the profile was asked for, answered or not. */
const PROFILE_WAIT_MS = 2_500;
/** How long the app waits at most for the browser to report the painted page on screen. */
const PAINT_REPORT_MS = 1_000;

/** The script runs from the head: the page's root exists once the document is parsed. */
const parsed = new Promise<void>((resolve) => {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => resolve(), { once: true });
  else resolve();
});

const appEntry = document.getElementById('carnivo-app')?.dataset.src;

function startApp(): void {
  if (appEntry) void parsed.then(() => import(/* @vite-ignore */ appEntry));
}

/**
 * The app's code is asked for once the painted page is on screen: when the browser reports it (its
 * first contentful paint), which comes later than the frame that drew it; without paint timing, two
 * frames later. A hidden tab paints nothing until shown, so it starts at once.
 */
function startAppAfterPaint(): void {
  if (document.visibilityState !== 'visible') return startApp();
  let started = false;
  const startOnce = () => {
    if (started) return;
    started = true;
    reported?.disconnect();
    startApp();
  };
  const reported =
    'PerformanceObserver' in window && PerformanceObserver.supportedEntryTypes?.includes('paint')
      ? new PerformanceObserver((list) => {
          if (list.getEntriesByName('first-contentful-paint').length > 0) startOnce();
        })
      : null;
  if (reported) {
    reported.observe({ type: 'paint' });
    setTimeout(startOnce, PAINT_REPORT_MS);
  } else {
    requestAnimationFrame(() => requestAnimationFrame(startOnce));
  }
}

/** GET /api/users/me?populate=* as machines/services/users.ts asks it; null for anything but the member. */
async function askForProfile(jwt: string): Promise<User | null> {
  try {
    const response = await fetch('/api/users/me?populate=*', { headers: { Authorization: `Bearer ${jwt}` } });
    return response.ok ? ((await response.json()) as User) : null;
  } catch {
    return null;
  }
}

/** Paints the page from the member; false when there is nothing to paint (the app then starts as usual). */
function paint(user: User | null): boolean {
  const root = document.getElementById('root');
  if (!user || !root || root.hasChildNodes()) return false;
  try {
    const page = profileShell(user, new URLSearchParams(window.location.search).get('tab'));
    // Painted, not yet working: nothing in it can be used until the app takes its place.
    for (const element of page) element.inert = true;
    root.replaceChildren(...page);
    return true;
  } catch {
    return false;
  }
}

function storedToken(): string | null {
  try {
    return window.localStorage.getItem(SESSION_KEYS.jwt);
  } catch {
    return null;
  }
}

const jwt = storedToken();
if (jwt) {
  const user = askForProfile(jwt);
  const early: EarlyProfile = { jwt, user };
  window.carnivoEarlyProfile = early;
  let appStarting = false;
  const waited = setTimeout(() => {
    appStarting = true;
    startApp();
  }, PROFILE_WAIT_MS);
  void Promise.all([user, parsed]).then(([answer]) => {
    if (appStarting) return;
    clearTimeout(waited);
    if (paint(answer)) startAppAfterPaint();
    else startApp();
  });
} else {
  startApp();
}
