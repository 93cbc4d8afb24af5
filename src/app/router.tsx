import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  redirect,
  type RouterHistory,
} from '@tanstack/react-router';
import type { AuthActorRef } from '../../machines/authSession.machine';
import { getCurrentUser } from '../api/users';
import { safeReturnPath } from '../lib/returnPath';
import { pageTitle, site } from '../config/site';
import { lazyPage } from './lazyPage';
import { RootLayout } from './RootLayout';
import { RouteErrorView } from './RouteErrorView';
import type { Flows } from './flows';

export type RouterContext = { auth: AuthActorRef; flows: Flows };

function isLoggedIn(auth: AuthActorRef): boolean {
  return auth.getSnapshot().matches('loggedIn');
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
  component: lazyPage(() => import('../pages/HomePage'), 'HomePage'),
  head: titled(`${site.brand} - Carnivore & Ketovore Diet App`),
});

function placeholderRoute<const TPath extends string>(path: TPath, page: string) {
  return createRoute({
    getParentRoute: () => rootRoute,
    path,
    component: lazyPage(() => import('../pages/PlaceholderPage'), 'PlaceholderPage'),
    head: titled(pageTitle(page)),
  });
}

const aboutRoute = placeholderRoute('about', 'About');
const companyDetailsRoute = placeholderRoute('company-details', 'Company Details');
const featuresRoute = placeholderRoute('features', 'Features');
const contactRoute = placeholderRoute('contact', 'Contact');
const privacyPolicyRoute = placeholderRoute('privacy-policy', 'Privacy Policy');
const termsRoute = placeholderRoute('terms', 'Terms and Conditions');
const refundPolicyRoute = placeholderRoute('refund-policy', 'Refund Policy');

const socialCallbackRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'auth/$provider/callback',
  component: lazyPage(() => import('../pages/PlaceholderPage'), 'PlaceholderPage'),
  head: titled(pageTitle('Social Login')),
});

type FromSearch = { from?: string };

function validateFrom(search: Record<string, unknown>): FromSearch {
  return typeof search.from === 'string' && safeReturnPath(search.from, '') ? { from: search.from } : {};
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
  validateSearch: (search: Record<string, unknown>): { code?: string } =>
    typeof search.code === 'string' && search.code.trim() ? { code: search.code.trim() } : {},
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
  beforeLoad: ({ context, location }) => {
    if (!isLoggedIn(context.auth)) {
      throw redirect({ to: '/login', search: { from: location.href }, replace: true });
    }
  },
  loader: ({ abortController }) => getCurrentUser({ signal: abortController.signal }),
  component: lazyPage(() => import('../pages/ProfilePage'), 'ProfilePage'),
  head: titled(pageTitle('Profile')),
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
