import type { $Fetch, FetchOptions } from 'ofetch';
import { serverErrorMessage, type StrapiErrorBody } from '../../server/src/contract/envelope';
import { SIGNED_OUT_REASON } from '../../server/src/contract/sessions';
import { isStepUpRequired, type StepUpRequired } from '../../server/src/contract/stepUp';
import { ApiError, isFetchError } from './errors';
import { askForStepUp, reportUnauthorized, storedToken } from './sessionHooks';

export const NO_TOKEN_MESSAGE = 'No token found';

let client: Promise<$Fetch> | undefined;

/** The one HTTP client of the SPA: same origin, JSON, no silent retries. Loaded with the first call, off the first paint. */
function loadClient(): Promise<$Fetch> {
  client ??= import('ofetch').then(
    ({ ofetch }) =>
      ofetch.create({
        baseURL: '/',
        retry: 0,
        onResponseError({ options, response }) {
          if (response.status !== 401) return;
          const sent = new Headers(options.headers).get('Authorization');
          // A token replaced meanwhile (e.g. by a password change) was revoked on purpose; the session lives on.
          const token = storedToken();
          if (!sent || !token || sent !== `Bearer ${token}`) return;
          const details = (response._data as StrapiErrorBody | undefined)?.error?.details as { reason?: unknown } | undefined;
          reportUnauthorized(details?.reason === SIGNED_OUT_REASON ? 'signedOut' : 'expired');
        },
      }),
    (error: unknown) => {
      client = undefined;
      throw error;
    },
  );
  return client;
}

/** How a failed call reads to the member. */
type FailureText =
  /** The server's error.message, else the fallback (most calls, SPEC §8). */
  | 'server-message'
  /** Always the fallback, whatever the server said. */
  | 'fallback'
  /** The diagnostic line "{fallback}: {status} {statusText} - {body}" when there was an answer, else the fallback. */
  | 'diagnostic';

type ApiCall = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: FetchOptions<'json'>['body'];
  query?: Record<string, string>;
  headers?: Record<string, string>;
  timeout?: number;
  signal?: AbortSignal;
  /** Sends the stored token as a bearer header; without one the call fails before sending. */
  auth?: boolean;
  /** The text when no token is stored, if the spec gives the call its own. */
  noTokenMessage?: string;
  /** The spec's text for this call's failure. */
  fallback: string;
  failureText?: FailureText;
  /** The spec's console line, "{logAs}: {status} {statusText} - {body}", logged when a sent call fails. */
  logAs?: string;
  /** Wraps every failure text, e.g. 'Failed to initiate subscription: {message}'. */
  shownAs?: (message: string) => string;
  /** 'text' keeps a file's answer as sent (e.g. a JSON download) instead of parsing it. */
  responseType?: 'json' | 'text';
};

/** What the caller gets from a successful answer; undefined marks an unusable answer, a failure with the fallback. */
type Reader<Answer, Result> = (answer: Answer | undefined, status: number, headers: Headers) => Result | undefined;

/** "{what}: {status} {statusText} - {body}" for an HTTP failure, "{what}: {reason}" without an answer. */
export function diagnosticLine(what: string, error: unknown): string {
  if (isFetchError(error) && error.response) {
    const body = typeof error.data === 'string' ? error.data : JSON.stringify(error.data ?? '');
    return `${what}: ${error.status ?? ''} ${error.statusText ?? ''} - ${body}`;
  }
  return `${what}: ${error instanceof Error ? error.message : String(error)}`;
}

/** The abort of the caller's signal, as fetch reports it, or null. */
function abortOf(error: unknown): DOMException | null {
  if (error instanceof DOMException && error.name === 'AbortError') return error;
  if (isFetchError(error) && error.cause instanceof DOMException && error.cause.name === 'AbortError') return error.cause;
  return null;
}

/** An error body read as text (a call with responseType 'text') is parsed for the server's message. */
function errorBody(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}

function failureMessage(error: unknown, call: ApiCall): string {
  if (error instanceof ApiError) return error.message;
  if (!isFetchError(error)) return call.fallback;
  switch (call.failureText ?? 'server-message') {
    case 'server-message':
      return serverErrorMessage(errorBody(error.data)) ?? call.fallback;
    case 'fallback':
      return call.fallback;
    case 'diagnostic':
      return error.response ? diagnosticLine(call.fallback, error) : call.fallback;
  }
}

function failure(error: unknown, call: ApiCall): ApiError {
  const message = failureMessage(error, call);
  const status = error instanceof ApiError ? error.status : isFetchError(error) ? error.status : undefined;
  return new ApiError(call.shownAs ? call.shownAs(message) : message, status);
}

function authorization(call: ApiCall): Record<string, string> {
  if (!call.auth) return {};
  const token = storedToken();
  if (!token) throw failure(new ApiError(call.noTokenMessage ?? NO_TOKEN_MESSAGE, 401), call);
  return { Authorization: `Bearer ${token}` };
}

/** The step-up a refused call asks for (403 with `error.details.stepUp`), or null. */
function stepUpAsked(error: unknown): StepUpRequired | null {
  if (!isFetchError(error) || error.status !== 403) return null;
  const details = (errorBody(error.data) as StrapiErrorBody | null)?.error?.details;
  return isStepUpRequired(details) ? details : null;
}

/**
 * The one request helper of machines/services. Sends `path` on the site's origin; on failure rejects with an
 * ApiError carrying the spec's text for the call (or with the caller's own AbortError), after the
 * spec's console line when the call has one. A 401 for the token held now ends the session
 * (see configureApiClient in sessionHooks.ts).
 */
export async function apiRequest<Answer>(path: string, call: ApiCall): Promise<Answer>;
export async function apiRequest<Answer, Result>(path: string, call: ApiCall & { read: Reader<Answer, Result> }): Promise<Result>;
export async function apiRequest<Answer, Result>(path: string, call: ApiCall & { read?: Reader<Answer, Result> }): Promise<unknown> {
  return send(path, call, true);
}

/**
 * A call refused for want of a recent step-up waits while the member proves presence in the dialog
 * (docs/security.md#step-up), then is sent once more; when they cancel it fails with the server's words.
 */
async function send<Answer, Result>(path: string, call: ApiCall & { read?: Reader<Answer, Result> }, mayStepUp: boolean): Promise<unknown> {
  const { method, body, query, headers, timeout, signal, read, responseType } = call;
  const authHeaders = authorization(call);
  try {
    const response = await (
      await loadClient()
    ).raw<Answer, 'json' | 'text'>(path, {
      method,
      responseType,
      body,
      query,
      timeout,
      signal,
      headers: { ...headers, ...authHeaders },
    });
    if (!read) return response._data;
    const result = read(response._data as Answer | undefined, response.status, response.headers);
    if (result === undefined) throw new ApiError(call.fallback, response.status);
    return result;
  } catch (error) {
    const aborted = abortOf(error);
    if (aborted) throw aborted;
    const stepUp = mayStepUp ? stepUpAsked(error) : null;
    if (stepUp && (await askForStepUp(stepUp.methods))) return send(path, call, false);
    if (call.logAs) console.error(diagnosticLine(call.logAs, error));
    throw failure(error, call);
  }
}
