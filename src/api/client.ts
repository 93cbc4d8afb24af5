import type { $Fetch, FetchOptions, FetchResponse } from 'ofetch';
import { ApiError } from './errors';

type SessionHooks = {
  getToken: () => string | null;
  /** Called when the server refuses a token the browser sent. */
  onUnauthorized: () => void;
};

let sessionHooks: SessionHooks = { getToken: () => null, onUnauthorized: () => {} };

export function configureApiClient(hooks: SessionHooks): void {
  sessionHooks = hooks;
}

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
          const token = sessionHooks.getToken();
          if (sent && token && sent === `Bearer ${token}`) sessionHooks.onUnauthorized();
        },
      }),
    (error: unknown) => {
      client = undefined;
      throw error;
    },
  );
  return client;
}

type ApiClient = {
  <T = unknown>(request: string, options?: FetchOptions<'json'>): Promise<T>;
  raw: <T = unknown>(request: string, options?: FetchOptions<'json'>) => Promise<FetchResponse<T>>;
};

export const apiClient: ApiClient = Object.assign(
  async <T = unknown>(request: string, options?: FetchOptions<'json'>): Promise<T> => (await loadClient())<T>(request, options),
  {
    raw: async <T = unknown>(request: string, options?: FetchOptions<'json'>): Promise<FetchResponse<T>> =>
      (await loadClient()).raw<T>(request, options),
  },
);

export function bearerHeaders(): { Authorization: string } {
  const token = sessionHooks.getToken();
  if (!token) throw new ApiError(NO_TOKEN_MESSAGE, 401);
  return { Authorization: `Bearer ${token}` };
}
