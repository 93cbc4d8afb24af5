import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { createAuthRateLimit, normalisePath } from '../security/auth-rate-limit';
import { accountSubject, clearThrottle, throttledLogIn } from '../security/login-throttle';

/**
 * The admin panel's auth routes under the members' rules, with counters shared by every instance
 * (Strapi's own admin and e-mail limiters, one process's memory each, are off: config/admin.ts,
 * config/plugins.ts):
 * - each route per client address (security.authRateLimit), forgot-password also per address
 *   whatever the e-mail (security.addressLimit): src/security/auth-rate-limit.ts;
 * - POST /admin/login: failures per administrator e-mail whatever the address, an e-mail no
 *   administrator has counted alike (src/security/login-throttle.ts). A password reset lifts the lock.
 */

const GUARDED: Record<string, string[]> = {
  POST: [
    '/admin/login',
    '/admin/register-admin',
    '/admin/register',
    '/admin/forgot-password',
    '/admin/reset-password',
    '/admin/access-token',
    '/admin/renew-token',
  ],
  GET: ['/admin/registration-info'],
};

// Strapi's answer to an unknown e-mail and to a wrong password alike.
const INVALID_CREDENTIALS = 'Invalid credentials';

type Next = () => Promise<unknown>;
type AdminAnswer = { data?: { token?: string; user?: { id?: number | string } } } | undefined;

const field = (source: unknown, name: string): unknown =>
  typeof source === 'object' && source !== null ? (source as Record<string, unknown>)[name] : undefined;

async function adminLogIn(strapi: Core.Strapi, ctx: Context, next: Next): Promise<void> {
  // As passport-local reads them: the body's field, else the query's.
  const email = field(ctx.request.body, 'email') || field(ctx.request.query, 'email');
  const password = field(ctx.request.body, 'password') || field(ctx.request.query, 'password');
  // Strapi answers "Missing credentials" itself; nothing is checked, nothing counted.
  if (!email) return void (await next());
  // passport lower-cases with lodash, which turns a list into its text: ['a@b.c'] would sign in as a@b.c uncounted.
  if (typeof email !== 'string') throw new errors.ValidationError('email must be a string');

  const admin = (await strapi.db.query('admin::user').findOne({ where: { email: email.trim().toLowerCase() }, select: ['id'] })) as {
    id: number;
  } | null;
  await throttledLogIn(strapi, ctx, {
    realm: 'admin',
    accountId: admin ? admin.id : null,
    identifier: email,
    password,
    comparePassword: (given, hash) => strapi.service('admin::auth').validatePassword(given, hash),
    isInvalidCredentials: (error) => error instanceof errors.ApplicationError && error.message === INVALID_CREDENTIALS,
    signedIn: () => ctx.status === 200 && Boolean((ctx.body as AdminAnswer)?.data?.token),
    logIn: next,
  });
}

/** After a reset by the e-mailed token the administrator gets straight back in, as members do. */
async function liftedAfterReset(ctx: Context, next: Next): Promise<void> {
  await next();
  const id = (ctx.body as AdminAnswer)?.data?.user?.id;
  if (ctx.status === 200 && id !== undefined) await clearThrottle(accountSubject('admin', id));
}

const adminAuthThrottle: Core.MiddlewareFactory = (_config, { strapi }) => {
  const perAddress = createAuthRateLimit(strapi);
  return async (ctx, next) => {
    const requestPath = normalisePath(ctx.request.path);
    if (!GUARDED[ctx.method]?.includes(requestPath)) return next();
    return perAddress(ctx, () => {
      if (requestPath === '/admin/login') return adminLogIn(strapi, ctx, next);
      if (requestPath === '/admin/reset-password') return liftedAfterReset(ctx, next);
      return next();
    });
  };
};

export default adminAuthThrottle;
