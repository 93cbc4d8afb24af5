import type { Core } from '@strapi/strapi';
import type { NextMiddleware as Next, RequestContext as Context } from '../request-context';

/**
 * The security and internal tables (the mail queue, member sessions, passkeys, two-factor records,
 * reminder claims, payment events) are out of the admin panel for every role, Super Admin included
 * (docs/security.md#the-admin-panel). Their schemas say so with pluginOptions content-manager
 * visible: false, which only hides them from the menus; this refuses every admin content route that
 * names one (in its path, query or body) with 404, whatever the administrator's permissions.
 */

/** The admin plugins whose routes read or write entries of a content type named in the request. */
const CONTENT_PREFIXES = ['/content-manager/', '/content-releases/', '/review-workflows/', '/i18n/', '/content-type-builder/'];

type Schema = { uid: string; pluginOptions?: { 'content-manager'?: { visible?: boolean } } };

/** The project's content types hidden from the Content Manager (one place: their schema.json), lower-cased. */
export function hiddenContentTypes(strapi: Core.Strapi): Set<string> {
  return new Set(
    (Object.values(strapi.contentTypes) as Schema[])
      .filter((schema) => schema.uid.startsWith('api::') && schema.pluginOptions?.['content-manager']?.visible === false)
      .map((schema) => schema.uid.toLowerCase()),
  );
}

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Whether a path segment, or any string in the query or body, is one of the hidden UIDs (whatever the letter case). */
function namesOne(hidden: ReadonlySet<string>, segments: string[], ctx: Context): boolean {
  if (segments.some((segment) => hidden.has(segment))) return true;
  const pending: unknown[] = [ctx.query, ctx.request.body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (hidden.has(value.toLowerCase())) return true;
    } else if (typeof value === 'object' && value !== null) {
      pending.push(...Object.values(value));
    }
  }
  return false;
}

const adminContentGuard: Core.MiddlewareFactory = (_config, { strapi }) => {
  let hidden: Set<string> | undefined;
  return async (ctx: Context, next: Next) => {
    // Strapi's router matches paths whatever their letter case (/Content-Manager/... reaches the
    // Content Manager): each segment compared decoded and lower-cased, so no spelling slips past.
    const segments = ctx.path.split('/').map((segment) => decoded(segment).toLowerCase());
    const path = segments.join('/');
    if (CONTENT_PREFIXES.some((prefix) => path.startsWith(prefix))) {
      // Built on first use: the content types are all registered by then.
      hidden ??= hiddenContentTypes(strapi);
      if (namesOne(hidden, segments, ctx)) {
        ctx.status = 404;
        ctx.body = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };
        return;
      }
    }
    return next();
  };
};

export default adminContentGuard;
