import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOGIN_FALLBACK, REGISTER_FALLBACK, login, register } from '../../machines/services/auth';
import { NO_TOKEN_MESSAGE } from '../../machines/services/client';
import { configureApiClient } from '../../machines/services/sessionHooks';
import { ApiError } from '../../machines/services/errors';
import { connectCallback } from '../../machines/services/social';
import {
  CANCEL_FALLBACK,
  cancelSubscription,
  createSubscription,
  getSubscriptionPlans,
  PLANS_FALLBACK,
} from '../../machines/services/subscriptions';
import { TOKEN_MISSING_MESSAGE, deleteAccount } from '../../machines/services/account';
import { getCurrentUser, updateProfile } from '../../machines/services/users';
import { emailChangeMessages } from '../../server/src/contract/emailChange';

function stubFetch(respond: (request: Request) => Response | Promise<Response>) {
  const requests: Request[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(new URL(String(input instanceof Request ? input.url : input), 'http://localhost'), init);
    requests.push(request);
    return respond(request);
  });
  return requests;
}

afterEach(() => {
  vi.unstubAllGlobals();
  configureApiClient({ getToken: () => null, onUnauthorized: () => {} });
});

describe('API client', () => {
  it('posts the login payload as JSON to /api/auth/local', async () => {
    const requests = stubFetch(() => Response.json({ jwt: 'j', user: { id: 1, createdAt: 'now' } }));
    await expect(login({ identifier: 'ribeye', password: 'pw' })).resolves.toEqual({ jwt: 'j', user: { id: 1, createdAt: 'now' } });
    expect(requests[0].method).toBe('POST');
    expect(new URL(requests[0].url).pathname).toBe('/api/auth/local');
    expect(await requests[0].json()).toEqual({ identifier: 'ribeye', password: 'pw' });
  });

  it("shows the server's error.message", async () => {
    stubFetch(() =>
      Response.json(
        { data: null, error: { status: 400, name: 'ApplicationError', message: 'Email or Username are already taken' } },
        { status: 400 },
      ),
    );
    const failure = register({ username: 'a', email: 'a@b.co', password: 'secret1' });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ message: 'Email or Username are already taken', status: 400 });
  });

  it('falls back to the spec text when the server says nothing useful', async () => {
    stubFetch(() => new Response('Bad Gateway', { status: 502 }));
    await expect(login({ identifier: 'a', password: 'b' })).rejects.toMatchObject({ message: LOGIN_FALLBACK });
    stubFetch(() => Promise.reject(new TypeError('network down')));
    await expect(register({ username: 'a', email: 'a@b.co', password: 'b' })).rejects.toMatchObject({ message: REGISTER_FALLBACK });
  });

  it('sends the bearer token and reports a refused token', async () => {
    const onUnauthorized = vi.fn();
    configureApiClient({ getToken: () => 'stored-jwt', onUnauthorized });
    const requests = stubFetch(() => Response.json({ error: { message: 'Missing or invalid credentials' } }, { status: 401 }));
    await expect(getCurrentUser()).rejects.toMatchObject({ status: 401 });
    expect(requests[0].headers.get('Authorization')).toBe('Bearer stored-jwt');
    expect(new URL(requests[0].url).search).toBe('?populate=*');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(onUnauthorized).toHaveBeenCalledWith('expired');
  });

  it('tells a session signed out from another device (the server gives the reason) from an expired one', async () => {
    const onUnauthorized = vi.fn();
    configureApiClient({ getToken: () => 'stored-jwt', onUnauthorized });
    const message = 'You were signed out from another device.';
    stubFetch(() =>
      Response.json({ data: null, error: { status: 401, message, details: { reason: 'session-signed-out' } } }, { status: 401 }),
    );
    await expect(getCurrentUser()).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledWith('signedOut');
    // Another reason, or none, is an expiry.
    stubFetch(() => Response.json({ error: { message, details: { reason: 'other' } } }, { status: 401 }));
    await expect(getCurrentUser()).rejects.toMatchObject({ status: 401 });
    stubFetch(() => new Response('', { status: 401 }));
    await expect(getCurrentUser()).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized.mock.calls).toEqual([['signedOut'], ['expired'], ['expired']]);
  });

  it('does not treat a failed login (no token sent) as an expired session', async () => {
    const onUnauthorized = vi.fn();
    configureApiClient({ getToken: () => 'stored-jwt', onUnauthorized });
    stubFetch(() => Response.json({ error: { message: 'Invalid identifier or password' } }, { status: 401 }));
    await expect(login({ identifier: 'a', password: 'b' })).rejects.toMatchObject({ message: 'Invalid identifier or password' });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('refuses an authenticated call without a stored token, sending nothing', async () => {
    const requests = stubFetch(() => Response.json({}));
    await expect(getCurrentUser()).rejects.toMatchObject({ message: NO_TOKEN_MESSAGE });
    expect(requests).toHaveLength(0);
  });

  it('finishes a redirect sign-in with the code and the state, and reads a non-200 as failure', async () => {
    const requests = stubFetch(() => Response.json({ jwt: 'j', user: { id: 4, createdAt: 'now' } }));
    await expect(connectCallback('facebook', 'the-code', 'the-state')).resolves.toMatchObject({ jwt: 'j' });
    expect(new URL(requests[0].url).pathname).toBe('/api/connect/facebook/callback');
    expect(Object.fromEntries(new URL(requests[0].url).searchParams)).toEqual({ code: 'the-code', state: 'the-state' });
    stubFetch(() => Response.json({ data: null, error: { message: 'Facebook sign-in failed: code expired' } }, { status: 400 }));
    await expect(connectCallback('facebook', 'old', undefined)).rejects.toMatchObject({ message: 'Facebook sign-in failed: code expired' });
    stubFetch(() => new Response(null, { status: 204 }));
    await expect(connectCallback('facebook', 'x', undefined)).rejects.toMatchObject({ message: 'Social login failed' });
  });

  it('ends the session on a 401 only for the token held now, not one replaced meanwhile', async () => {
    const onUnauthorized = vi.fn();
    let token = 'old-jwt';
    configureApiClient({ getToken: () => token, onUnauthorized });
    stubFetch(() => {
      // A password change stores a new token while the old one's call is on its way.
      token = 'new-jwt';
      return Response.json({ error: { message: 'Missing or invalid credentials' } }, { status: 401 });
    });
    await expect(getCurrentUser()).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it("uses the call's own no-token text where the spec gives one", async () => {
    const requests = stubFetch(() => Response.json({ ok: true }));
    await expect(deleteAccount()).rejects.toMatchObject({ message: TOKEN_MISSING_MESSAGE, status: 401 });
    expect(requests).toHaveLength(0);
  });

  it('shows the fallback, not the server message, where the spec says so, and logs the diagnostic line', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch(() => Response.json({ error: { message: 'Internal detail' } }, { status: 500, statusText: 'Internal Server Error' }));
    await expect(getSubscriptionPlans()).rejects.toMatchObject({ message: PLANS_FALLBACK, status: 500 });
    expect(log).toHaveBeenCalledWith(
      'Failed to fetch subscription plans: 500 Internal Server Error - {"error":{"message":"Internal detail"}}',
    );
    log.mockRestore();
  });

  it("wraps the purchase failure as 'Failed to initiate subscription: {message}'", async () => {
    configureApiClient({ getToken: () => 'stored-jwt', onUnauthorized: () => {} });
    stubFetch(() => Response.json({ error: { message: 'This plan is no longer available.' } }, { status: 400 }));
    await expect(createSubscription('price_old')).rejects.toMatchObject({
      message: 'Failed to initiate subscription: This plan is no longer available.',
    });
    configureApiClient({ getToken: () => null, onUnauthorized: () => {} });
    await expect(createSubscription('price_old')).rejects.toMatchObject({
      message: `Failed to initiate subscription: ${NO_TOKEN_MESSAGE}`,
    });
  });

  it("reads a failed cancel as SPEC §8's 'Failed to cancel subscription: {status} {statusText} - {response body}'", async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    configureApiClient({ getToken: () => 'stored-jwt', onUnauthorized: () => {} });
    const body = { data: null, error: { status: 400, name: 'ApplicationError', message: 'You have no active subscription to cancel.' } };
    const requests = stubFetch(() => Response.json(body, { status: 400, statusText: 'Bad Request' }));
    const expected = `Failed to cancel subscription: 400 Bad Request - ${JSON.stringify(body)}`;
    await expect(cancelSubscription()).rejects.toMatchObject({ message: expected, status: 400 });
    expect(requests[0].method).toBe('POST');
    expect(requests[0].headers.get('Authorization')).toBe('Bearer stored-jwt');
    expect(log).toHaveBeenCalledWith(expected);
    log.mockRestore();
  });

  it("reads a cancel without an answer as the fallback 'Failed to cancel subscription'", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    configureApiClient({ getToken: () => 'stored-jwt', onUnauthorized: () => {} });
    stubFetch(() => Promise.reject(new TypeError('network down')));
    await expect(cancelSubscription()).rejects.toMatchObject({ message: CANCEL_FALLBACK });
  });

  it("passes the caller's abort through untouched", async () => {
    configureApiClient({ getToken: () => 'stored-jwt', onUnauthorized: () => {} });
    // What fetch does when the caller's signal fires: the machine stopped the actor, nobody reads a message.
    stubFetch(() => Promise.reject(new DOMException('The operation was aborted.', 'AbortError')));
    const call = getCurrentUser({ signal: new AbortController().signal });
    await expect(call).rejects.toBeInstanceOf(DOMException);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });

  it("shows the e-mail change limit in the server's words, with when to try again, and asks once (no retry)", async () => {
    configureApiClient({ getToken: () => 'stored-jwt', onUnauthorized: () => {} });
    const message = emailChangeMessages.tooManyRequests(42 * 60);
    const requests = stubFetch(() =>
      Response.json(
        { data: null, error: { status: 429, name: 'RateLimitError', message } },
        { status: 429, headers: { 'Retry-After': '2520' } },
      ),
    );
    const update = updateProfile('7', {
      section: 'information',
      values: { username: 'ribeye', email: 'new@example.com', bmi: { Gender: 'Male', date_of_birth: '1990-01-01' }, currentPassword: 'pw' },
    });
    await expect(update).rejects.toMatchObject({ message, status: 429 });
    expect(message).toBe('You asked to change your email too many times. Please try again in 42 minutes.');
    expect(requests).toHaveLength(1);
  });
});
