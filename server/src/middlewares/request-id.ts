import type { Core } from '@strapi/strapi';
import { acceptedRequestId, withRequestId } from '../operations/request-ids';

/**
 * First in the stack: gives each request its id (the client's X-Request-Id when it is a sane token,
 * else a new UUID: src/operations/request-ids.ts), answers it in X-Request-Id, and runs the rest of
 * the request under it, so every log line written while answering carries it.
 */
const requestId: Core.MiddlewareFactory = () => async (ctx, next) => {
  const id = acceptedRequestId(ctx.get('X-Request-Id'));
  ctx.set('X-Request-Id', id);
  try {
    await withRequestId(id, next);
  } catch (error) {
    // An error no middleware answered: Koa's own error answer keeps only the error's headers.
    if (error instanceof Error) {
      const { headers } = error as Error & { headers?: Record<string, string> };
      Object.assign(error, { headers: { ...headers, 'X-Request-Id': id } });
    }
    throw error;
  }
};

export default requestId;
