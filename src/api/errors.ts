import type { FetchError } from 'ofetch';

/** An API failure carrying the text a person should read and the HTTP status, if any. */
export class ApiError extends Error {
  readonly status: number | undefined;

  constructor(message: string, status?: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

/** ofetch's HTTP and network errors, recognised without loading ofetch into the first paint. */
export function isFetchError(error: unknown): error is FetchError {
  return error instanceof Error && error.name === 'FetchError';
}

type StrapiErrorBody = { error?: { message?: unknown } };

function serverMessage(data: unknown): string | undefined {
  const message = (data as StrapiErrorBody | undefined)?.error?.message;
  return typeof message === 'string' && message.trim() ? message : undefined;
}

/** The server's error.message when it sent one, otherwise the spec's fallback for the call. */
export function toApiError(error: unknown, fallback: string): Error {
  if (error instanceof ApiError) return error;
  if (error instanceof DOMException && error.name === 'AbortError') return error;
  if (isFetchError(error)) {
    if (error.cause instanceof DOMException && error.cause.name === 'AbortError') return error.cause;
    return new ApiError(serverMessage(error.data) ?? fallback, error.status);
  }
  return new ApiError(fallback);
}

export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
