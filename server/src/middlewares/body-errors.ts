import fs from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type { Core } from '@strapi/strapi';
import type { NextMiddleware as Next, RequestContext as Context } from '../request-context';

/**
 * Bad request bodies answer 4xx, never 500 (docs/security.md). Placed right before strapi::body,
 * with global::body-parsed right after it:
 *
 * - An error thrown while strapi::body reads the body (multipart/form-data without a boundary, cut
 *   off, or whose closing boundary never comes; invalid JSON; a body over the size limits; an
 *   unknown Content-Encoding or charset; a compressed body that does not decompress or is cut off)
 *   becomes 400 "The request body could not be read: <reason>", 413 "The request body is too large:
 *   <reason>" or 415. Once global::body-parsed has run, the body was read, and whatever a route
 *   throws passes through untouched (Strapi's own answer, 5xx included).
 *   An error that is not about the request (e.g. the disk is full) also passes through as a 500.
 * - Under the API prefix, multipart/form-data is accepted only where files are uploaded (POST
 *   /api/upload); every other route takes JSON, so a form body there gets 415 before anything is read
 *   or written to disk.
 * - The temp files of an uploaded body are removed whatever the answer (strapi::body removes them
 *   only when the route succeeded).
 */

/** Set on ctx.state by global::body-parsed once strapi::body has read the body. */
export const BODY_PARSED = Symbol.for('carnivo.body-parsed');

/** Methods whose body strapi::body (koa-body) reads. */
export const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** API routes (after the prefix) that take multipart/form-data. */
const MULTIPART_ROUTES = ['/upload'];

export type Refusal = { status: 400 | 413 | 415; message: string };

const NAMES: Record<Refusal['status'], string> = {
  400: 'BadRequestError',
  413: 'PayloadTooLargeError',
  415: 'UnsupportedMediaTypeError',
};

const UNREADABLE = 'The request body could not be read: ';
const TOO_LARGE = 'The request body is too large: ';

/** Answers in Strapi's error format ({ data: null, error: { status, name, message, details } }). */
export function answer(ctx: Context, { status, message }: Refusal): void {
  ctx.status = status;
  ctx.body = { data: null, error: { status, name: NAMES[status], message, details: {} } };
}

/** The request path without trailing slashes, lower-cased (the router matches case-insensitively). */
export const normalisedPath = (ctx: Context) => ctx.path.toLowerCase().replace(/\/+$/, '') || '/';

/** The route part of an API path ('/api/upload' -> '/upload'), or null outside the API. */
export function apiRoute(ctx: Context, prefix: string): string | null {
  const requestPath = normalisedPath(ctx);
  const base = prefix.toLowerCase().replace(/\/+$/, '');
  if (requestPath === base) return '/';
  return requestPath.startsWith(`${base}/`) ? requestPath.slice(base.length) : null;
}

const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
const kilobytes = (bytes: number) => (bytes >= 1024 * 1024 ? megabytes(bytes) : `${Math.round(bytes / 1024)} KB`);

type BodyError = Error & {
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  type?: unknown;
  code?: unknown;
  httpCode?: unknown;
  limit?: unknown;
};

/**
 * formidable's errors (FormidableError: numeric `code`, `httpCode`), by code. 1000 and 1001 are
 * plugin set-up errors (ours, not the client's) and are not listed.
 */
const FORMIDABLE: Record<number, Refusal> = {
  1002: { status: 400, message: `${UNREADABLE}the request ended before its body was complete` },
  1003: { status: 415, message: `${UNREADABLE}unsupported Content-Type` },
  1004: { status: 400, message: `${UNREADABLE}the multipart/form-data body could not be parsed` },
  1005: { status: 400, message: `${UNREADABLE}a file name is not text` },
  1006: { status: 413, message: `${TOO_LARGE}the form fields are too large` },
  1007: { status: 413, message: `${TOO_LARGE}too many form fields` },
  1008: { status: 400, message: `${UNREADABLE}a file is empty` },
  1009: { status: 413, message: `${TOO_LARGE}a file is larger than the server accepts` },
  1010: { status: 400, message: `${UNREADABLE}a file is empty` },
  1011: { status: 400, message: `${UNREADABLE}the Content-Type header is missing` },
  1012: { status: 400, message: `${UNREADABLE}the multipart/form-data body is malformed or cut off (its closing boundary never came)` },
  1013: { status: 400, message: `${UNREADABLE}the multipart/form-data Content-Type has no boundary` },
  1014: { status: 415, message: `${UNREADABLE}a part uses an unsupported Content-Transfer-Encoding` },
};

/** The refusal for an error thrown while the body was read, or null when it is not the client's fault. */
export function describeBodyError(thrown: unknown): Refusal | null {
  if (!(thrown instanceof Error)) return null;
  const error = thrown as BodyError;

  // formidable (multipart/form-data)
  if (typeof error.code === 'number' && error.code >= 1002 && error.code < 1100) {
    const known = FORMIDABLE[error.code];
    if (known) return known;
    const status = error.httpCode === 413 || error.httpCode === 415 ? error.httpCode : 400;
    return { status, message: `${status === 413 ? TOO_LARGE : UNREADABLE}${error.message}` };
  }

  // zlib / brotli: a body sent with Content-Encoding gzip, deflate or br that does not decompress
  // (not compressed at all, corrupt, or cut off).
  if (typeof error.code === 'string' && /^(Z_|ERR__ERROR_)/.test(error.code)) {
    return { status: 400, message: `${UNREADABLE}it does not decompress as its Content-Encoding says (${error.message})` };
  }

  // raw-body / co-body (JSON, urlencoded, text)
  switch (error.type) {
    case 'entity.too.large':
      return {
        status: 413,
        message: `${TOO_LARGE}${typeof error.limit === 'number' ? `it may be at most ${kilobytes(error.limit)}` : 'it is over the limit'}`,
      };
    case 'request.aborted':
      return FORMIDABLE[1002];
    case 'request.size.invalid':
      return { status: 400, message: `${UNREADABLE}its length does not match its Content-Length` };
    case 'encoding.unsupported':
      return { status: 415, message: `${UNREADABLE}unsupported Content-Encoding` };
    case 'charset.unsupported':
      return { status: 415, message: `${UNREADABLE}unsupported charset` };
    case 'parameters.too.many':
      return { status: 413, message: `${TOO_LARGE}too many parameters` };
    default:
      break;
  }
  const status = Number(error.status ?? error.statusCode);
  // co-body's JSON: a syntax error, or strict mode (only an object or an array).
  if (error instanceof SyntaxError || (status === 400 && /json/i.test(error.message))) {
    return { status: 400, message: `${UNREADABLE}it is not valid JSON (${error.message})` };
  }
  // The client went away mid-body (it will not see the answer; this keeps it out of the 500s).
  if (error.code === 'ECONNRESET' || error.code === 'ECONNABORTED' || error.message === 'aborted') return FORMIDABLE[1002];
  // Any other client error the parser reports with a 4xx status.
  if (status >= 400 && status < 500 && error.expose !== false) {
    const kind = status === 413 ? 413 : status === 415 ? 415 : 400;
    return { status: kind, message: `${kind === 413 ? TOO_LARGE : UNREADABLE}${error.message}` };
  }
  return null;
}

/**
 * A compressed body (Content-Encoding gzip, deflate, br) is read through `req.pipe(zlib stream)`, and a
 * pipe does not pass on that the client went away: the parse would wait forever, and the request would
 * never be answered nor leave the in-flight count. When the request closes before its body was
 * complete, the zlib stream gets the 'aborted' event raw-body (strapi::body's reader) listens for, so
 * the body gets the 400 of any cut-off body, and is then destroyed (no error event: nobody may listen).
 */
function endPipesWhenCutOff(req: IncomingMessage): void {
  const pipe = req.pipe.bind(req);
  req.pipe = ((destination: NodeJS.WritableStream, options?: { end?: boolean }) => {
    req.once('close', () => {
      if (req.complete) return;
      destination.emit('aborted');
      (destination as NodeJS.WritableStream & { destroy?(): void }).destroy?.();
    });
    return pipe(destination, options);
  }) as typeof req.pipe;
}

type UploadedFiles = Record<string, { filepath?: string } | { filepath?: string }[] | undefined>;

async function removeTempFiles(ctx: Context): Promise<void> {
  const files = (ctx.request as { files?: UploadedFiles }).files;
  if (!files) return;
  const paths = Object.values(files)
    .flatMap((value) => (value ? (Array.isArray(value) ? value : [value]) : []))
    .map((file) => file?.filepath)
    .filter((filepath): filepath is string => typeof filepath === 'string');
  await Promise.all(paths.map((filepath) => fs.rm(filepath, { force: true }).catch(() => undefined)));
}

const bodyErrors: Core.MiddlewareFactory = (_config, { strapi }) => {
  const prefix = strapi.config.get<string>('api.rest.prefix', '/api');

  return async (ctx: Context, next: Next) => {
    if (BODY_METHODS.has(ctx.method) && ctx.is('multipart')) {
      const route = apiRoute(ctx, prefix);
      if (route !== null && !MULTIPART_ROUTES.includes(route)) {
        return answer(ctx, { status: 415, message: 'This route takes a JSON body: send it with Content-Type: application/json' });
      }
    }

    const encoding = ctx.get('content-encoding').trim().toLowerCase();
    if (BODY_METHODS.has(ctx.method) && encoding !== '' && encoding !== 'identity') endPipesWhenCutOff(ctx.req);

    try {
      await next();
      // strapi::body answers a file over formidable's maxFileSize itself, with the message "FileTooBig".
      const body = ctx.body as { error?: { message?: unknown } } | undefined;
      if (!(ctx.state as Record<symbol, unknown>)[BODY_PARSED] && ctx.status === 413 && body?.error?.message === 'FileTooBig') {
        answer(ctx, FORMIDABLE[1009]);
      }
    } catch (error) {
      if ((ctx.state as Record<symbol, unknown>)[BODY_PARSED]) throw error;
      const refusal = describeBodyError(error);
      if (!refusal) throw error;
      strapi.log.debug(`[body] ${ctx.method} ${ctx.path}: ${refusal.status} (${error instanceof Error ? error.message : String(error)})`);
      answer(ctx, refusal);
    } finally {
      await removeTempFiles(ctx);
    }
  };
};

export default bodyErrors;
