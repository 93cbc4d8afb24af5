import { createHash, timingSafeEqual } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import type { RequestContext as Context } from '../../../request-context';
import { sendError } from '../../../payments/http';
import { metricsContentType, renderMetrics } from '../../../operations/metrics';

/**
 * GET /api/metrics: Prometheus' scrape, for `Authorization: Bearer $METRICS_TOKEN`. Without
 * METRICS_TOKEN the endpoint is off and answers exactly as an unknown API route does (404).
 */

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time: the digests have one length, so the comparison takes as long whatever was sent. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer (\S+)$/i.exec(authorization ?? '');
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(token)) && match !== null;
}

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async scrape(ctx: Context) {
    const token = process.env.METRICS_TOKEN?.trim();
    if (!token) {
      sendError(ctx, 404, 'NotFoundError', 'Not Found', {});
      return;
    }
    ctx.set('Cache-Control', 'no-store');
    if (!bearerMatches(ctx.get('Authorization'), token)) {
      ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      sendError(ctx, 401, 'UnauthorizedError', 'Missing or wrong metrics token');
      return;
    }
    ctx.type = metricsContentType;
    ctx.body = await renderMetrics(strapi);
  },
});
