import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { bootStrapi, type TestStrapi } from '../helpers/strapi';
import { SITEMAP_PATHS } from '../../src/middlewares/crawler-files';

// Over 1 KB, so both the build and the server would compress them.
const APP_JS = `console.log("carnivo-app-js");\n${'export const plans = ["monthly", "yearly", "founders"];\n'.repeat(60)}`;
const SCREEN_SVG = `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="10" height="10" fill="#7a1f1f"/>'.repeat(40)}</svg>`;
const INDEX = `<!doctype html><html><head><title>Carnivo</title></head><body><div id="root"></div>${'<!-- carnivo-spa-index -->\n'.repeat(80)}</body></html>`;
const PUBLIC_URL = 'https://carnivo.example/';

let app: TestStrapi;
let tmp: string;
let spaDir: string;
let uploadFile: string;
// Random bytes do not shrink, as in a real PNG; over 1 KB.
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), crypto.randomBytes(4096)]);

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as sent, not decoded. */
  body: Buffer;
}

/** A request that sends exactly these headers (fetch adds its own Accept-Encoding and decodes). */
const raw = (urlPath: string, headers: Record<string, string> = {}, method = 'GET') =>
  new Promise<RawResponse>((resolve, reject) => {
    const { hostname, port } = new URL(app.baseUrl);
    const req = http.request({ hostname, port, path: urlPath, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });

const decode = (res: RawResponse): string => {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(res.body).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(res.body).toString('utf8');
  expect(encoding).toBeUndefined();
  return res.body.toString('utf8');
};

const varyHasAcceptEncoding = (res: RawResponse) =>
  String(res.headers.vary ?? '')
    .split(',')
    .map((value) => value.trim().toLowerCase())
    .includes('accept-encoding');

/** What the build writes (scripts/precompress.ts), here with Node's zlib directly. */
const writeWithVariants = (file: string, content: string) => {
  fs.writeFileSync(file, content);
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
};

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carnivo-compression-'));
  spaDir = path.join(tmp, 'dist');
  fs.mkdirSync(path.join(spaDir, 'assets'), { recursive: true });
  fs.mkdirSync(path.join(spaDir, 'images'), { recursive: true });
  fs.writeFileSync(path.join(spaDir, 'index.html'), INDEX);
  writeWithVariants(path.join(spaDir, 'assets', 'app.js'), APP_JS);
  writeWithVariants(path.join(spaDir, 'images', 'screen.svg'), SCREEN_SVG);
  // Built without variants (e.g. an older build): compressed on the fly instead.
  fs.writeFileSync(path.join(spaDir, 'assets', 'plain.js'), APP_JS);
  fs.writeFileSync(path.join(spaDir, 'images', 'photo.png'), PNG);
  app = await bootStrapi({ env: { SPA_DIR: spaDir, PUBLIC_URL } });
  // After the start: the start-up sweep would remove a file that no upload row names.
  uploadFile = path.join(app.strapi.dirs.static.public, 'uploads', `compression-test-${crypto.randomUUID()}.png`);
  fs.writeFileSync(uploadFile, PNG);
});

afterAll(async () => {
  await app?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  if (uploadFile) fs.rmSync(uploadFile, { force: true });
});

describe('precompressed SPA files', () => {
  it('sends the .br file to a client that takes brotli, typed and cached as the original', async () => {
    const res = await raw('/assets/app.js', { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(varyHasAcceptEncoding(res)).toBe(true);
    // The file as built, sent once: not compressed a second time on the way out.
    expect(res.body.equals(fs.readFileSync(path.join(spaDir, 'assets', 'app.js.br')))).toBe(true);
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(decode(res)).toBe(APP_JS);
  });

  it('sends the .gz file to a client that takes gzip only', async () => {
    const res = await raw('/assets/app.js', { 'Accept-Encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(varyHasAcceptEncoding(res)).toBe(true);
    expect(res.body.equals(fs.readFileSync(path.join(spaDir, 'assets', 'app.js.gz')))).toBe(true);
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(decode(res)).toBe(APP_JS);
  });

  it.each([
    ['no Accept-Encoding', {}],
    ['identity', { 'Accept-Encoding': 'identity' }],
    ['br;q=0, gzip;q=0', { 'Accept-Encoding': 'br;q=0, gzip;q=0' }],
    ['an unknown coding', { 'Accept-Encoding': 'compress' }],
  ])('sends the plain file for %s', async (_label, headers: Record<string, string>) => {
    const res = await raw('/assets/app.js', headers);
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(varyHasAcceptEncoding(res)).toBe(true);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(APP_JS));
    expect(res.body.toString('utf8')).toBe(APP_JS);
  });

  it.each([
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0, br', 'br'],
    ['*', 'br'],
    ['*;q=1, br;q=0', 'gzip'],
    ['deflate, gzip;q=0.5', 'gzip'],
  ])('honours the weights of "%s": %s', async (acceptEncoding, expected) => {
    const res = await raw('/assets/app.js', { 'Accept-Encoding': acceptEncoding });
    expect(res.headers['content-encoding']).toBe(expected);
    expect(decode(res)).toBe(APP_JS);
  });

  it('answers HEAD with the headers of the chosen file and no body', async () => {
    const br = await raw('/assets/app.js', { 'Accept-Encoding': 'br, gzip' }, 'HEAD');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(Number(br.headers['content-length'])).toBe(fs.statSync(path.join(spaDir, 'assets', 'app.js.br')).size);
    expect(varyHasAcceptEncoding(br)).toBe(true);
    expect(br.body.length).toBe(0);

    const plain = await raw('/assets/app.js', {}, 'HEAD');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(APP_JS));
    expect(plain.body.length).toBe(0);
  });

  it('serves precompressed files outside /assets with no-cache', async () => {
    const res = await raw('/images/screen.svg', { 'Accept-Encoding': 'br' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(decode(res)).toBe(SCREEN_SVG);
  });

  it('compresses a built file without variants on the fly', async () => {
    const res = await raw('/assets/plain.js', { 'Accept-Encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toContain('immutable');
    expect(decode(res)).toBe(APP_JS);
  });
});

describe('compression on the fly', () => {
  it('compresses API JSON over 1 KB (a legal text) with brotli or gzip', async () => {
    const plain = await raw('/api/privacy-policy', {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    const json = JSON.parse(plain.body.toString('utf8'));

    const br = await raw('/api/privacy-policy', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(varyHasAcceptEncoding(br)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(JSON.parse(decode(br))).toEqual(json);

    const gzip = await raw('/api/privacy-policy', { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decode(gzip))).toEqual(json);

    const refused = await raw('/api/privacy-policy', { 'Accept-Encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(refused.body.toString('utf8'))).toEqual(json);
  });

  it('leaves API JSON under 1 KB as it is', async () => {
    const res = await raw('/api/payments/config', { 'Accept-Encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString('utf8'))).toHaveProperty('mode');
  });

  it('compresses the HTML shell and keeps it no-cache', async () => {
    const res = await raw('/profile', { 'Accept-Encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(varyHasAcceptEncoding(res)).toBe(true);
    expect(decode(res)).toBe(INDEX);
  });

  it.each(['/images/photo.png', '/uploads/UPLOAD'])('does not compress images: %s', async (urlPath) => {
    const res = await raw(urlPath.replace('UPLOAD', path.basename(uploadFile)), { 'Accept-Encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.equals(PNG)).toBe(true);
  });
});

describe('robots.txt and sitemap.xml', () => {
  it('robots.txt keeps members-only pages, sign-in callbacks, the admin panel and the API out, and names the sitemap', async () => {
    const res = await fetch(`${app.baseUrl}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const lines = (await res.text()).trim().split('\n');
    expect(lines[0]).toBe('User-agent: *');
    expect(lines).toContain('Allow: /');
    expect(lines.filter((line) => line.startsWith('Disallow:')).sort()).toEqual(
      ['/admin', '/api', '/auth/', '/bmi', '/delete-profile', '/email-change/', '/profile'].map((prefix) => `Disallow: ${prefix}`),
    );
    expect(lines).toContain('Sitemap: https://carnivo.example/sitemap.xml');
    expect((await fetch(`${app.baseUrl}/robots.txt`, { method: 'HEAD' })).status).toBe(200);
  });

  it('sitemap.xml lists the public pages at PUBLIC_URL', async () => {
    const res = await fetch(`${app.baseUrl}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const xml = await res.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]);
    expect(locs).toEqual(
      [
        '/',
        '/about',
        '/company-details',
        '/features',
        '/contact',
        '/privacy-policy',
        '/terms',
        '/refund-policy',
        '/login',
        '/signup',
        '/reset-password',
      ].map((pathname) => `https://carnivo.example${pathname}`),
    );
    expect(SITEMAP_PATHS).not.toContain('/email-confirmation');
    expect(xml).not.toMatch(/\/(profile|bmi|delete-profile|auth|admin|api)\b/);
  });

  it('reads PUBLIC_URL on each request', async () => {
    const before = process.env.PUBLIC_URL;
    process.env.PUBLIC_URL = 'https://www.carnivo.example';
    try {
      expect(await (await fetch(`${app.baseUrl}/robots.txt`)).text()).toContain('Sitemap: https://www.carnivo.example/sitemap.xml');
      expect(await (await fetch(`${app.baseUrl}/sitemap.xml`)).text()).toContain('<loc>https://www.carnivo.example/about</loc>');
    } finally {
      process.env.PUBLIC_URL = before;
    }
  });
});
