import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * The id of the request being answered, for every log line written while answering it. A client's
 * (or load balancer's) X-Request-Id is kept only when it is a plain token: anything else could forge
 * log lines or blow up their size, so it is replaced by a fresh UUID.
 */

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

const storage = new AsyncLocalStorage<{ requestId: string }>();

/** The given id when it is a sane token, else a new UUID. */
export const acceptedRequestId = (given: string | undefined): string => (given && SANE_REQUEST_ID.test(given) ? given : randomUUID());

/** Runs `work` (and everything it awaits) under `requestId`. */
export const withRequestId = <T>(requestId: string, work: () => T): T => storage.run({ requestId }, work);

/** The id of the request being answered here, or undefined outside a request. */
export const currentRequestId = (): string | undefined => storage.getStore()?.requestId;

/**
 * Winston's defaultMeta for strapi.log: winston copies it into each line with Object.assign when the
 * line is logged, so this getter reads the request id at the call, in the request's async context.
 */
export const requestIdLogMeta = {
  get requestId(): string | undefined {
    return currentRequestId();
  },
};
