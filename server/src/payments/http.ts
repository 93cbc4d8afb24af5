import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { isGatewayError } from './gateway';

/** A request that the member's current state does not allow (answered 409 by the controllers). */
export class ConflictError extends errors.ApplicationError<'ConflictError'> {
  constructor(message: string) {
    super(message);
    this.name = 'ConflictError';
  }
}

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
 * Gateway failures as HTTP answers (and ConflictError as 409): a refused card is 402 with the provider's message; anything
 * else (provider unreachable, misconfigured price, unknown object) is 502 with a generic message,
 * logged with the details. Other errors are rethrown to Strapi's error middleware.
 */
export function handleGatewayError(strapi: Core.Strapi, ctx: ErrorContext, error: unknown): void {
  if (error instanceof ConflictError) {
    sendError(ctx, 409, 'ConflictError', error.message);
    return;
  }
  if (!isGatewayError(error)) throw error;
  if (error.kind === 'card') {
    sendError(ctx, 402, 'CardError', error.message, { code: error.code ?? 'card_error' });
    return;
  }
  strapi.log.error(`[payments] gateway ${error.kind}: ${error.message}${error.code ? ` (${error.code})` : ''}`);
  sendError(ctx, 502, 'PaymentServiceError', PAYMENT_SERVICE_FAILED);
}
