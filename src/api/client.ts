import { ofetch } from 'ofetch';
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

/** The one HTTP client of the SPA: same origin, JSON, no silent retries. */
export const apiClient = ofetch.create({
  baseURL: '/',
  retry: 0,
  onResponseError({ options, response }) {
    const sentToken = new Headers(options.headers).has('Authorization');
    if (sentToken && response.status === 401) sessionHooks.onUnauthorized();
  },
});

export function bearerHeaders(): { Authorization: string } {
  const token = sessionHooks.getToken();
  if (!token) throw new ApiError(NO_TOKEN_MESSAGE, 401);
  return { Authorization: `Bearer ${token}` };
}
