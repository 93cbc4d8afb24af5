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

export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
