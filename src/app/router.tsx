import { createRootRouteWithContext, createRoute, createRouter, redirect, type RouterHistory } from '@tanstack/react-router';
import type { InspectionEvent, Observer } from 'xstate';
import type { AuthActorRef } from '../../machines/authSession.machine';
import { isProfileTab, type ProfileTabId } from '../features/profile/profileTabs';
import type { AppPath } from '../../machines/rules/navigation';
import { safeReturnPath } from '../../machines/rules/returnPath';
import { lazyPage } from '../hooks/lazyPage';
import { RootLayout } from './RootLayout';
import { RouteErrorView } from '../components/RouteErrorView';
import type { PrerenderedData } from '../prerender/prerenderedData';
import type { Flows } from '../hooks/flows';

/** The Stately inspector's observer (development, opt-in): every flow actor reports to it. */
export type FlowInspector = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

export type RouterContext = { auth: AuthActorRef; flows: Flows; prerendered?: PrerenderedData; inspect?: FlowInspector };

function isLoggedIn(auth: AuthActorRef): boolean {
  return auth.getSnapshot().matches('loggedIn');
}

/** GET /api/users/me (or the profile shell's early answer), loaded with the page that needs it rather than the first paint. */
async function loadCurrentUser({ abortController }: { abortController: AbortController }) {
  const { loadCurrentUser } = await import('./currentUser');
  return loadCurrentUser(abortController.signal);
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
});

// The marketing and legal pages, a row each: no guard, search or loader; each page (with its head) in its own
// chunk. `as const` keeps every path literal, so the route tree still names each one (see AppPath below).
const marketingRoutes = (
  [
    ['/', lazyPage(() => import('../features/marketing/LandingPage'), 'LandingPage')],
    ['about', lazyPage(() => import('../features/marketing/AboutPage'), 'AboutPage')],
    ['company-details', lazyPage(() => import('../features/marketing/CompanyDetailsPage'), 'CompanyDetailsPage')],
    ['features', lazyPage(() => import('../features/marketing/FeaturesPage'), 'FeaturesPage')],
    ['contact', lazyPage(() => import('../features/marketing/ContactPage'), 'ContactPage')],
    ['privacy-policy', lazyPage(() => import('../features/legal/LegalPage'), 'PrivacyPolicyPage')],
    ['terms', lazyPage(() => import('../features/legal/LegalPage'), 'TermsPage')],
    ['refund-policy', lazyPage(() => import('../features/legal/LegalPage'), 'RefundPolicyPage')],
  ] as const
).map(([path, component]) => createRoute({ getParentRoute: () => rootRoute, path, component }));

const socialCallbackRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'auth/$provider/callback',
  // The provider's answer: a code, or an error (possibly empty).
  validateSearch: (search: Record<string, unknown>): { code?: string; state?: string; error?: string } => ({
    code: typeof search.code === 'string' && search.code ? search.code : undefined,
    state: typeof search.state === 'string' && search.state ? search.state : undefined,
    error: search.error === undefined ? undefined : String(search.error),
  }),
  component: lazyPage(() => import('../features/auth/social/SocialCallbackPage'), 'SocialCallbackPage'),
});

type FromSearch = { from?: string };

// Keys are always returned: the router keeps raw values for keys a validator omits.
function validateFrom(search: Record<string, unknown>): FromSearch {
  return { from: typeof search.from === 'string' && safeReturnPath(search.from, '') ? search.from : undefined };
}

const signUpRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'signup',
  beforeLoad: ({ context }) => {
    if (isLoggedIn(context.auth)) throw redirect({ to: '/profile', replace: true });
  },
  component: lazyPage(() => import('../features/auth/SignUpPage'), 'SignUpPage'),
});

const logInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'login',
  validateSearch: validateFrom,
  beforeLoad: ({ context, search }) => {
    if (isLoggedIn(context.auth)) throw redirect({ href: safeReturnPath(search.from), replace: true });
  },
  component: lazyPage(() => import('../features/auth/LogInPage'), 'LogInPage'),
});

const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'reset-password',
  validateSearch: (search: Record<string, unknown>): { code?: string } => ({
    code: typeof search.code === 'string' && search.code.trim() ? search.code.trim() : undefined,
  }),
  component: lazyPage(() => import('../features/account/ResetPasswordPage'), 'ResetPasswordPage'),
});

const deleteProfileRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'delete-profile',
  component: lazyPage(() => import('../features/account/DeleteProfilePage'), 'DeleteProfilePage'),
});

const emailConfirmationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'email-confirmation',
  component: lazyPage(() => import('../pages/EmailConfirmedPage'), 'EmailConfirmedPage'),
});

/**
 * `?token=` of a verified e-mail change's link, as text; its form is checked by the page's flow
 * (machines/emailChangeConfirmation.machine.ts), which keeps the contract's rule out of the entry chunk.
 */
const validateEmailChangeSearch = (search: Record<string, unknown>): { token?: string } => ({
  token: typeof search.token === 'string' && search.token ? search.token : undefined,
});

const emailChangeConfirmRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'email-change/confirm',
  validateSearch: validateEmailChangeSearch,
  component: lazyPage(() => import('../features/account/EmailChangeLinkPage'), 'EmailChangeConfirmPage'),
});

const emailChangeCancelRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'email-change/cancel',
  validateSearch: validateEmailChangeSearch,
  component: lazyPage(() => import('../features/account/EmailChangeLinkPage'), 'EmailChangeCancelPage'),
});

/**
 * The members' pages (/profile, /bmi): a pathless layout route (an id, no path, so the URLs stay) that
 * guards them and loads the member once for both. A visitor goes to /login, replacing the entry, with the
 * attempted path as `from` (a path on this site only, as /login checks it too).
 */
const memberRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: '_member',
  beforeLoad: ({ context, location, matches }) => {
    if (!isLoggedIn(context.auth)) {
      throw redirect({ to: '/login', search: { from: safeReturnPath(location.href) }, replace: true });
    }
    // The layout's match stays from one member page to the other, so its loader would not run again.
    return { memberPageEntered: matches.at(-1)?.cause === 'enter' };
  },
  // A member page entered from the other reloads the member, as entering it from elsewhere does, and is drawn
  // once the member is loaded (blocking): /bmi's save then /profile never shows the member from before it.
  shouldReload: ({ context }) => context.memberPageEntered || undefined,
  loader: { handler: loadCurrentUser, staleReloadMode: 'blocking' },
});

const profileRoute = createRoute({
  getParentRoute: () => memberRoute,
  path: 'profile',
  validateSearch: (search: Record<string, unknown>): { tab?: ProfileTabId } => ({
    tab: isProfileTab(search.tab) ? search.tab : undefined,
  }),
  component: lazyPage(() => import('./ProfileRoute'), 'ProfileRoute'),
});

const firstRunBmiRoute = createRoute({
  getParentRoute: () => memberRoute,
  path: 'bmi',
  component: lazyPage(() => import('../features/profile/FirstRunBmiPage'), 'FirstRunBmiPage'),
});

// SPEC §2: any unknown path redirects to /.
const unknownPathRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '$',
  beforeLoad: () => {
    throw redirect({ to: '/', replace: true });
  },
});

const routeTree = rootRoute.addChildren([
  ...marketingRoutes,
  signUpRoute,
  logInRoute,
  resetPasswordRoute,
  emailConfirmationRoute,
  emailChangeConfirmRoute,
  emailChangeCancelRoute,
  memberRoute.addChildren([profileRoute, firstRunBmiRoute]),
  deleteProfileRoute,
  socialCallbackRoute,
  unknownPathRoute,
]);

export function createAppRouter({
  auth,
  flows,
  prerendered,
  inspect,
  history,
  scrollRestoration = true,
  isServer,
}: RouterContext & {
  history?: RouterHistory;
  /** Off when prerendering: the server would inline a restoring script (the CSP allows no inline script). */
  scrollRestoration?: boolean;
  /** Set when prerendering, wherever that runs (tests render "server" HTML in jsdom). */
  isServer?: boolean;
}) {
  return createRouter({
    isServer,
    routeTree,
    history,
    context: { auth, flows, prerendered, inspect },
    defaultErrorComponent: RouteErrorView,
    defaultPendingMs: 300,
    scrollRestoration,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

// Machines name routes by AppPath: it must be exactly this route tree's paths, no more, no fewer.
type SamePaths<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const appPathsMatchRouteTree: SamePaths<AppPath, keyof AppRouter['routesByPath']> = true;
void appPathsMatchRouteTree;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
