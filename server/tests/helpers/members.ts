import { expect } from 'vitest';
import { request, requestFrom } from './strapi';
import type { AuthResponse } from './types';

/** A member a test signed up, with what it signed up with. */
export interface Member {
  id: number;
  documentId: string;
  jwt: string;
  username: string;
  email: string;
  password: string;
}

export interface SignUpOptions {
  /** Defaults to `<username>@example.com`. */
  email?: string;
  /** Defaults to `<username>-Pass-1`. */
  password?: string;
  /** A loopback address to send from (the per-address limits), else the default one. */
  from?: string;
  headers?: Record<string, string>;
}

/**
 * The one sign-up of the server tests' scaffolds (boot()'s `app.register`, a cluster's `register`, and files
 * that boot their own server): POST /api/auth/local/register, expecting 200. Files where sign-up itself is what
 * is tested send their own requests.
 */
export async function signUp(baseUrl: string, username: string, options: SignUpOptions = {}): Promise<Member> {
  const { email = `${username}@example.com`, password = `${username}-Pass-1`, from, headers } = options;
  const body = { username, email, password };
  const res = await (from || headers
    ? requestFrom<AuthResponse>(from ?? '127.0.0.1', baseUrl, 'POST', '/api/auth/local/register', { body, headers })
    : request<AuthResponse>(baseUrl, 'POST', '/api/auth/local/register', { body }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.user.id, documentId: res.body.user.documentId, jwt: res.body.jwt, username, email, password };
}
