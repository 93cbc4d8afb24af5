import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOGIN_FALLBACK, REGISTER_FALLBACK, login, register } from '../../src/api/auth';
import { configureApiClient, NO_TOKEN_MESSAGE } from '../../src/api/client';
import { ApiError } from '../../src/api/errors';
import { connectCallback } from '../../src/api/social';
import { getCurrentUser } from '../../src/api/users';

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
      Response.json({ data: null, error: { status: 400, name: 'ApplicationError', message: 'Email or Username are already taken' } }, { status: 400 }),
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
});
