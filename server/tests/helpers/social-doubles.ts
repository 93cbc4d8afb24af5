import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type JWTPayload, type KeyLike } from 'jose';

/** Local stand-ins for Google's / Apple's published keys and for Facebook's Graph API. */

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

function close(server: http.Server): Promise<void> {
  server.closeAllConnections?.();
  return new Promise((resolve) => server.close(() => resolve()));
}

function sendJson(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

export interface SigningKey {
  kid: string;
  privateKey: KeyLike;
  publicJwk: Record<string, unknown>;
}

export async function newSigningKey(kid: string = crypto.randomUUID()): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { modulusLength: 2048 });
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

/** Signs an ID token with the key (RS256, its kid in the header). */
export function signIdToken(
  key: SigningKey,
  claims: JWTPayload,
  { expiresIn = '1h', issuedAt }: { expiresIn?: string | number; issuedAt?: number } = {},
) {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' });
  jwt.setIssuedAt(issuedAt);
  jwt.setExpirationTime(expiresIn);
  return jwt.sign(key.privateKey);
}

/** A JWKS endpoint (GET /keys) serving the public halves of `keys`. */
export async function startJwksServer(keys: SigningKey[]) {
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests += 1;
    if (req.method === 'GET' && req.url === '/keys') return sendJson(res, 200, { keys: keys.map((k) => k.publicJwk) });
    return sendJson(res, 404, { error: 'not found' });
  });
  const origin = await listen(server);
  return {
    url: `${origin}/keys`,
    get requests() {
      return requests;
    },
    close: () => close(server),
  };
}

export interface FacebookProfile {
  id: string;
  name: string;
  email?: string;
}

export interface FacebookDoubleOptions {
  appId: string;
  appSecret: string;
  /** The redirect_uri the app registered; the double refuses any other one. */
  redirectUri: string;
}

export interface RecordedRequest {
  path: string;
  query: Record<string, string>;
}

/**
 * Facebook's login dialog and Graph API (v19.0 paths):
 * - GET /v19.0/dialog/oauth?client_id&redirect_uri&state&scope: sends the browser back to redirect_uri
 *   with ?code=…&state=… (the person is "logged in to Facebook" as the cookie fb_user=<id> of the
 *   double's origin says, else as a new random id; fb_deny=1 answers error=access_denied instead).
 * - GET /v19.0/oauth/access_token?client_id&client_secret&redirect_uri&code: codes "fb-ok-<id>"
 *   (a person with e-mail fb_<id>@example.test), "fb-noemail-<id>" (no e-mail), or codes added with
 *   addCode(); anything else is refused as Facebook does (HTTP 400, error.message).
 * - GET /v19.0/me?fields=id,name,email&access_token&appsecret_proof.
 */
export async function startFacebookDouble(options: FacebookDoubleOptions) {
  const requests: RecordedRequest[] = [];
  const codes = new Map<string, FacebookProfile>();
  const tokens = new Map<string, FacebookProfile>();

  const oauthError = (res: http.ServerResponse, message: string, code = 100) =>
    sendJson(res, 400, { error: { message, type: 'OAuthException', code, fbtrace_id: 'double' } });

  const profileOf = (code: string): FacebookProfile | undefined => {
    const added = codes.get(code);
    if (added) return added;
    const ok = /^fb-ok-([A-Za-z0-9_-]+)$/.exec(code);
    if (ok) return { id: ok[1], name: `Facebook ${ok[1]}`, email: `fb_${ok[1]}@example.test`.toLowerCase() };
    const noEmail = /^fb-noemail-([A-Za-z0-9_-]+)$/.exec(code);
    if (noEmail) return { id: noEmail[1], name: `Facebook ${noEmail[1]}` };
    return undefined;
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://double');
    const query = Object.fromEntries(url.searchParams);
    requests.push({ path: url.pathname, query });

    if (url.pathname === '/v19.0/dialog/oauth') {
      if (query.client_id !== options.appId) return oauthError(res, 'Invalid App ID');
      if (query.redirect_uri !== options.redirectUri)
        return oauthError(res, "URL blocked: this redirect URI is not whitelisted in the app's client OAuth settings.");
      const cookies = Object.fromEntries(
        (req.headers.cookie ?? '')
          .split(';')
          .map((part) => part.trim().split('='))
          .filter(([name]) => name) as [string, string][],
      );
      const back = new URL(query.redirect_uri);
      if (cookies.fb_deny === '1') {
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_reason', 'user_denied');
        back.searchParams.set('error_description', 'Permissions error');
      } else {
        back.searchParams.set('code', `fb-ok-${cookies.fb_user || crypto.randomBytes(6).toString('hex')}`);
      }
      if (query.state) back.searchParams.set('state', query.state);
      res.writeHead(302, { Location: back.toString() });
      return res.end();
    }

    if (url.pathname === '/v19.0/oauth/access_token') {
      if (query.client_id !== options.appId) return oauthError(res, 'Error validating application. Invalid application ID.', 101);
      if (query.client_secret !== options.appSecret) return oauthError(res, 'Error validating client secret.', 1);
      if (query.redirect_uri !== options.redirectUri) {
        return oauthError(
          res,
          'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
        );
      }
      const profile = profileOf(query.code ?? '');
      if (!profile) return oauthError(res, 'Invalid verification code format.');
      const token = `fbtok-${crypto.randomBytes(12).toString('hex')}`;
      tokens.set(token, profile);
      return sendJson(res, 200, { access_token: token, token_type: 'bearer', expires_in: 5183944 });
    }

    if (url.pathname === '/v19.0/me') {
      const profile = tokens.get(query.access_token ?? '');
      if (!profile) return oauthError(res, 'Invalid OAuth access token - Cannot parse access token', 190);
      const proof = crypto.createHmac('sha256', options.appSecret).update(query.access_token).digest('hex');
      if (query.appsecret_proof !== proof) return oauthError(res, 'Invalid appsecret_proof provided in the API argument', 100);
      const fields = (query.fields ?? 'id,name').split(',');
      return sendJson(
        res,
        200,
        Object.fromEntries(fields.filter((f) => f in profile).map((f) => [f, profile[f as keyof FacebookProfile]])),
      );
    }

    return sendJson(res, 404, { error: { message: 'Unknown path components', type: 'OAuthException', code: 2500 } });
  });

  const origin = await listen(server);
  return {
    origin,
    authorizeUrl: `${origin}/v19.0/dialog/oauth`,
    graphUrl: `${origin}/v19.0`,
    requests,
    addCode(code: string, profile: FacebookProfile) {
      codes.set(code, profile);
    },
    close: () => close(server),
  };
}
