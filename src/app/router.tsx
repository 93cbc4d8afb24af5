import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  redirect,
  type RouterHistory,
} from '@tanstack/react-router';
import type { AuthActorRef } from '../../machines/authSession.machine';
import { getCurrentUser } from '../api/users';
import { isProfileTab, type ProfileTabId } from '../features/profile/profileTabs';
import { safeReturnPath } from '../lib/returnPath';
import { pageTitle, site } from '../config/site';
import { legalDocuments } from '../lib/legalDocuments';
import { lazyPage } from './lazyPage';
import { RootLayout } from './RootLayout';
import { RouteErrorView } from './RouteErrorView';
import type { Flows } from './flows';

export type RouterContext = { auth: AuthActorRef; flows: Flows };

function isLoggedIn(auth: AuthActorRef): boolean {
  return auth.getSnapshot().matches('loggedIn');
}

/** Members-only pages: a visitor goes to /login, replacing the entry, with the attempted path as `from`. */
function requireLogin({ context, location }: { context: RouterContext; location: { href: string } }) {
  if (!isLoggedIn(context.auth)) {
    throw redirect({ to: '/login', search: { from: location.href }, replace: true });
  }
}

const titled = (title: string, description?: string) => () => ({
  meta: [{ title }, ...(description ? [{ name: 'description', content: description }] : [])],
});

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  head: titled(site.brand, `${site.brand}: ${site.tagline}.`),
});

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  component: lazyPage(() => import('../features/marketing/LandingPage'), 'LandingPage'),
  head: () => ({
    meta: [
      { title: `${site.brand} - Carnivore & Ketovore Diet App` },
      {
        name: 'description',
        content: `${site.brand} is the carnivore and ketovore diet app: ${site.figures.recipes} recipes, a meal planner with a diet calendar, elimination-diet, weight and BMI tracking. Free download, free ${site.figures.landingFreePlanDays}-day meal plan.`,
      },
      {
        name: 'keywords',
        content:
          'carnivore diet app, ketovore diet app, carnivore meal plan, carnivore recipes, elimination diet tracker, keto meal planner, BMI tracker, weight loss app',
      },
    ],
  }),
});

function marketingRoute<const TPath extends string, TModule extends Record<string, unknown>>(
  path: TPath,
  page: string,
  description: string,
  importer: () => Promise<TModule>,
  exportName: keyof TModule & string,
) {
  return createRoute({
    getParentRoute: () => rootRoute,
    path,
    component: lazyPage(importer, exportName),
    head: titled(pageTitle(page), description),
  });
}

const aboutRoute = marketingRoute(
  'about',
  'About',
  `Who we are and why we build ${site.brand}, the app for carnivore and ketovore eaters: our mission and values.`,
  () => import('../features/marketing/AboutPage'),
  'AboutPage',
);
const companyDetailsRoute = marketingRoute(
  'company-details',
  'Company Details',
  `${site.brand}'s founders, values, leadership team, milestones and how to reach the company.`,
  () => import('../features/marketing/CompanyDetailsPage'),
  'CompanyDetailsPage',
);
const featuresRoute = marketingRoute(
  'features',
  'Features',
  `Every ${site.brand} feature: recipes and meal plans, elimination and food-introduction trackers, weight, cycle, digestion and mood tracking, meal planner and 24/7 expert support.`,
  () => import('../features/marketing/FeaturesPage'),
  'FeaturesPage',
);
const contactRoute = marketingRoute(
  'contact',
  'Contact',
  `Reach the ${site.brand} team by phone, e-mail or post, and download the app.`,
  () => import('../features/marketing/ContactPage'),
  'ContactPage',
);
const privacyPolicyRoute = marketingRoute(
  'privacy-policy',
  legalDocuments.privacyPolicy.pageName,
  legalDocuments.privacyPolicy.description,
  () => import('../features/legal/LegalPage'),
  'PrivacyPolicyPage',
);
const termsRoute = marketingRoute(
  'terms',
  legalDocuments.terms.pageName,
  legalDocuments.terms.description,
  () => import('../features/legal/LegalPage'),
  'TermsPage',
);
const refundPolicyRoute = marketingRoute(
  'refund-policy',
  legalDocuments.refundPolicy.pageName,
  legalDocuments.refundPolicy.description,
  () => import('../features/legal/LegalPage'),
  'RefundPolicyPage',
);

const socialCallbackRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'auth/$provider/callback',
  // The provider's answer: a code, or an error (possibly empty).
  validateSearch: (search: Record<string, unknown>): { code?: string; error?: string } => ({
    code: typeof search.code === 'string' && search.code ? search.code : undefined,
    error: search.error === undefined ? undefined : String(search.error),
  }),
  component: lazyPage(() => import('../features/auth/social/SocialCallbackPage'), 'SocialCallbackPage'),
  head: titled(pageTitle('Social Login')),
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
  head: titled(pageTitle('Sign Up'), `Create your ${site.brand} account.`),
});

const logInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'login',
  validateSearch: validateFrom,
  beforeLoad: ({ context, search }) => {
    if (isLoggedIn(context.auth)) throw redirect({ href: safeReturnPath(search.from), replace: true });
  },
  component: lazyPage(() => import('../features/auth/LogInPage'), 'LogInPage'),
  head: titled(pageTitle('Log In'), `Log in to your ${site.brand} account.`),
});

const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'reset-password',
  validateSearch: (search: Record<string, unknown>): { code?: string } => ({
    code: typeof search.code === 'string' && search.code.trim() ? search.code.trim() : undefined,
  }),
  component: lazyPage(() => import('../features/account/ResetPasswordPage'), 'ResetPasswordPage'),
  head: titled(pageTitle('Reset Password'), `Reset the password of your ${site.brand} account.`),
});

const deleteProfileRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'delete-profile',
  component: lazyPage(() => import('../features/account/DeleteProfilePage'), 'DeleteProfilePage'),
  head: titled(pageTitle('Delete Account'), `Permanently delete your ${site.brand} account.`),
});

const emailConfirmationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'email-confirmation',
  component: lazyPage(() => import('../pages/EmailConfirmedPage'), 'EmailConfirmedPage'),
  head: titled(pageTitle('Email Confirmed')),
});

const profileRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'profile',
  validateSearch: (search: Record<string, unknown>): { tab?: ProfileTabId } => ({
    tab: isProfileTab(search.tab) ? search.tab : undefined,
  }),
  beforeLoad: requireLogin,
  loader: ({ abortController }) => getCurrentUser({ signal: abortController.signal }),
  component: lazyPage(() => import('../features/profile/ProfilePage'), 'ProfilePage'),
  head: titled(pageTitle('Profile')),
});

const firstRunBmiRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'bmi',
  beforeLoad: requireLogin,
  loader: ({ abortController }) => getCurrentUser({ signal: abortController.signal }),
  component: lazyPage(() => import('../features/profile/FirstRunBmiPage'), 'FirstRunBmiPage'),
  head: titled(pageTitle('Your BMI')),
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
  indexRoute,
  aboutRoute,
  companyDetailsRoute,
  signUpRoute,
  logInRoute,
  resetPasswordRoute,
  featuresRoute,
  emailConfirmationRoute,
  profileRoute,
  firstRunBmiRoute,
  deleteProfileRoute,
  socialCallbackRoute,
  privacyPolicyRoute,
  termsRoute,
  refundPolicyRoute,
  contactRoute,
  unknownPathRoute,
]);

export function createAppRouter({ auth, flows, history }: RouterContext & { history?: RouterHistory }) {
  return createRouter({
    routeTree,
    history,
    context: { auth, flows },
    defaultErrorComponent: RouteErrorView,
    defaultPendingMs: 300,
    scrollRestoration: true,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
