import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { bootStrapi, request, type TestStrapi } from '../helpers/strapi';
import type { ApiError } from '../helpers/types';
import { resolveFile } from '../../src/middlewares/spa';
import { SPA_ROUTES } from '../../src/contract/routes';

const INDEX = '<!doctype html><html><head><title>Carnivo</title></head><body><div id="root"></div>carnivo-spa-index</body></html>';
const APP_JS = 'console.log("carnivo-app-js");';
const SECRET = 'carnivo-secret-outside-spa-dir';

let app: TestStrapi;
let tmp: string;
let spaDir: string;

/** Sends the path verbatim (fetch would normalise "/../" away). */
const rawGet = (urlPath: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const { hostname, port } = new URL(app.baseUrl);
    const req = http.request({ hostname, port, path: urlPath, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carnivo-spa-'));
  spaDir = path.join(tmp, 'dist');
  fs.mkdirSync(path.join(spaDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(spaDir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(spaDir, 'assets', 'app.js'), APP_JS);
  fs.writeFileSync(path.join(spaDir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(spaDir, '.env'), SECRET);
  fs.writeFileSync(path.join(tmp, 'secret.txt'), SECRET);
  app = await bootStrapi({ env: { SPA_DIR: spaDir } });
});

afterAll(async () => {
  await app?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('SPA serving', () => {
  it.each(['/', '/profile', '/auth/google/callback', '/reset-password?code=abc', '/email-change/confirm?token=abc', '/bmi/', '/About'])(
    'answers index.html for %s',
    async (urlPath) => {
      const res = await fetch(app.baseUrl + urlPath, { redirect: 'manual' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toBe(INDEX);
    },
  );

  it('answers every route of the SPA with index.html', async () => {
    for (const route of SPA_ROUTES) {
      const res = await fetch(app.baseUrl + route.replace('$provider', 'google'), { redirect: 'manual' });
      expect(res.status, route).toBe(200);
      expect(await res.text(), route).toBe(INDEX);
    }
  });

  it.each(['/definitely/not/a/page', '/profile/extra', '/metrics', '/auth/google', '/about/team', '/email-change//confirm'])(
    'answers %s, no route of the SPA, with 404 and noindex (the shell, whose router goes on to /)',
    async (urlPath) => {
      const res = await fetch(app.baseUrl + urlPath, { redirect: 'manual' });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('x-robots-tag')).toBe('noindex');
      const html = await res.text();
      expect(html).toContain('carnivo-spa-index');
      expect(html).toContain('<meta name="robots" content="noindex" />');
      const head = await fetch(app.baseUrl + urlPath, { method: 'HEAD' });
      expect(head.status).toBe(404);
      expect(await head.text()).toBe('');
    },
  );

  it('sends a same-origin CSP with the SPA', async () => {
    const res = await fetch(`${app.baseUrl}/profile`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("img-src 'self' data: blob:");
    // Same origin, plus only the payment provider's API for Stripe.js.
    expect(csp).toMatch(/connect-src 'self'[^;]*https:\/\/api\.stripe\.com/);
    expect(csp).not.toMatch(/connect-src[^;]*\*(;|\s|$)/);
  });

  it('serves built files with their content type; hashed assets are cached long', async () => {
    const js = await fetch(`${app.baseUrl}/assets/app.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(js.headers.get('cache-control')).toContain('immutable');
    expect(await js.text()).toBe(APP_JS);

    const svg = await fetch(`${app.baseUrl}/logo.svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  it('answers 404, not index.html, for a missing asset', async () => {
    const res = await fetch(`${app.baseUrl}/assets/missing.js`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('carnivo-spa-index');
  });

  it('answers HEAD for SPA routes without a body', async () => {
    const res = await fetch(`${app.baseUrl}/profile`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('leaves Strapi paths alone', async () => {
    const unknown = await request<ApiError>(app.baseUrl, 'GET', '/api/unknown');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^application\/json/);
    expect(unknown.body.error.name).toBe('NotFoundError');

    const ingredients = await request<{ data: unknown[] }>(app.baseUrl, 'GET', '/api/ingredients');
    expect(ingredients.status).toBe(200);
    expect(ingredients.body.data).toHaveLength(6);

    const robots = await fetch(`${app.baseUrl}/robots.txt`);
    expect(await robots.text()).not.toContain('carnivo-spa-index');

    const post = await fetch(`${app.baseUrl}/profile`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(await post.text()).not.toContain('carnivo-spa-index');
  });

  it.each([
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/..%5csecret.txt',
    '/.env',
    '/%2eenv',
  ])('does not leak files outside the SPA dir or dotfiles: %s', async (urlPath) => {
    const res = await rawGet(urlPath);
    expect(res.body).not.toContain(SECRET);
  });

  // Strapi's own static handler rejects most of these before the SPA middleware runs,
  // so the SPA's resolver is checked directly as well.
  it('resolves only regular, non-hidden files inside the SPA dir', () => {
    expect(resolveFile(spaDir, '/assets/app.js')).toBe(path.join(spaDir, 'assets', 'app.js'));
    expect(resolveFile(spaDir, '/assets/../assets/app.js')).toBeNull();
    for (const urlPath of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/.env',
      '/%2eenv',
      '/assets',
      '/%E0%A4%A',
      '/index.html%00.js',
    ]) {
      expect(resolveFile(spaDir, urlPath)).toBeNull();
    }
  });

  it('answers 503 with a hint when the SPA is not built', async () => {
    fs.renameSync(path.join(spaDir, 'index.html'), path.join(spaDir, 'index.html.bak'));
    try {
      const res = await fetch(`${app.baseUrl}/profile`);
      expect(res.status).toBe(503);
      expect(await res.text()).toContain('npm run build');
    } finally {
      fs.renameSync(path.join(spaDir, 'index.html.bak'), path.join(spaDir, 'index.html'));
    }
  });
});
