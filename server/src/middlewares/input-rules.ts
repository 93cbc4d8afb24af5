import type { Core } from '@strapi/strapi';
import type { NextMiddleware as Next, RequestContext as Context } from '../request-context';
import { apiRoute } from './body-errors';
import { QueryGrammar, QueryShapeError, fieldKinds, relationParameters, type FieldSchema } from '../security/query-grammar';

/**
 * No 5xx from any query shape or byte (docs/security.md). Right after global::body-parsed, so it
 * sees the parsed query (strapi::query) and body (strapi::body), before any route reads them:
 *
 * - A control character (U+0000 to U+001F but tab, line feed and carriage return) in the path, in a
 *   key or value of the query string, or in a key or string of the body answers 400 "... contains a
 *   character that is not allowed". Refused, not stripped, so nothing is silently altered; PostgreSQL
 *   cannot store or even compare a NUL byte, which answered 500 wherever one reached a query.
 *   Stripe's webhook is left alone: its body is Stripe's, signed, and must reach the route as sent.
 * - Under the API prefix and on the admin panel's content routes, the query's filters, sort, fields,
 *   populate and pagination must follow Strapi's query grammar (src/security/query-grammar.ts): a wrong
 *   shape answers 400 with the path of the part in error.
 */

// oxlint-disable no-control-regex -- control characters are what this looks for
/**
 * Control characters (but tab, line feed, carriage return), and lone UTF-16 surrogates: no text
 * holds one, none can be stored as UTF-8, and bcryptjs kills the process on a password with one.
 */
export const CONTROL_CHARACTER =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// oxlint-enable no-control-regex

const WEBHOOK = '/payments/webhook';
/**
 * The admin panel's content routes take the same query grammar (a signed-in administrator's filters).
 * Matched on the decoded, lower-cased path: Strapi's router ignores letter case.
 */
const ADMIN_CONTENT = /^\/content-manager\/(collection-types|single-types|relations)\//;

type Plain = Record<string, unknown>;

/** Where a key or string holds a control character ('' when none). Iterative: bodies may nest deep. */
export function controlCharacterAt(value: unknown, root: string): string {
  const pending: [unknown, string][] = [[value, root]];
  while (pending.length > 0) {
    const [current, path] = pending.pop()!;
    if (typeof current === 'string') {
      if (CONTROL_CHARACTER.test(current)) return path;
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        const at = `${path}[${key}]`;
        if (CONTROL_CHARACTER.test(key)) return at;
        pending.push([item, at]);
      }
    }
  }
  return '';
}

/** The 400 of a refused query, path or body, in Strapi's error format. */
function refuse(ctx: Context, message: string, details: Record<string, unknown> = {}): void {
  ctx.status = 400;
  ctx.body = { data: null, error: { status: 400, name: 'ValidationError', message, details } };
}

/** The path as the router decodes its parameters (a malformed escape is left to the router: it answers 400). */
function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

const NOT_ALLOWED =
  'contains a character that is not allowed (a control character such as NUL, or half of a character; tab and line breaks are fine)';

const inputRules: Core.MiddlewareFactory = (_config, { strapi }) => {
  const prefix = strapi.config.get<string>('api.rest.prefix', '/api');
  let grammar: QueryGrammar | undefined;

  return async (ctx: Context, next: Next) => {
    const path = decodedPath(ctx.path);
    if (CONTROL_CHARACTER.test(path)) return refuse(ctx, `The request path ${NOT_ALLOWED}`);
    const adminPath = path.toLowerCase();

    const query = ctx.query as Plain;
    const inQuery = controlCharacterAt(query, 'query');
    if (inQuery !== '') return refuse(ctx, `The query string ${NOT_ALLOWED}`, { path: inQuery.replace(/^query\[([^\]]*)\]/, '$1') });

    const route = apiRoute(ctx, prefix);
    if (!(route === WEBHOOK && ctx.method === 'POST')) {
      const inBody = controlCharacterAt(ctx.request.body, 'body');
      if (inBody !== '') return refuse(ctx, `The request body ${NOT_ALLOWED}`, { path: inBody.replace(/^body\[([^\]]*)\]/, '$1') });
    }

    if (route !== null || ADMIN_CONTENT.test(adminPath)) {
      // Built on first use: the content types are all registered by then.
      grammar ??= new QueryGrammar(
        fieldKinds([...Object.values(strapi.contentTypes), ...Object.values(strapi.components)] as FieldSchema[]),
      );
      try {
        grammar.query(query);
        if (route === null && adminPath.startsWith('/content-manager/relations/')) relationParameters(query, path);
      } catch (error) {
        if (!(error instanceof QueryShapeError)) throw error;
        return refuse(ctx, error.message, { param: error.path.split('[')[0], path: error.path });
      }
    }
    return next();
  };
};

export default inputRules;
