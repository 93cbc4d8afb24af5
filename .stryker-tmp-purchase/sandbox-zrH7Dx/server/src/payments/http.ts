// @ts-nocheck
import type { Core } from '@strapi/strapi';
import { isGatewayError } from './gateway';

interface ErrorContext {
  status: number;
  body: unknown;
}

/** Answers Strapi's error shape { data: null, error: { status, name, message } }. */
export function sendError(ctx: ErrorContext, status: number, name: string, message: string, details?: unknown): void {
  ctx.status = status;
  ctx.body = { data: null, error: { status, name, message, ...(details !== undefined ? { details } : {}) } };
}

export const PAYMENT_SERVICE_FAILED = 'The payment service could not complete the request. Please try again later.';

/**
 * Gateway failures as HTTP answers: a refused card is 402 with the provider's message; anything
 * else (provider unreachable, misconfigured price, unknown object) is 502 with a generic message,
 * logged with the details. Other errors are rethrown to Strapi's error middleware.
 */
export function handleGatewayError(strapi: Core.Strapi, ctx: ErrorContext, error: unknown): void {
  if (!isGatewayError(error)) throw error;
  if (error.kind === 'card') {
    sendError(ctx, 402, 'CardError', error.message, { code: error.code ?? 'card_error' });
    return;
  }
  strapi.log.error(`[payments] gateway ${error.kind}: ${error.message}${error.code ? ` (${error.code})` : ''}`);
  sendError(ctx, 502, 'PaymentServiceError', PAYMENT_SERVICE_FAILED);
}
