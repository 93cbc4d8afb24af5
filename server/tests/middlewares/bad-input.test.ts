// First: every temp file of this process goes to a directory of its own (see the helper), so a
// malformed upload can be proven to leave nothing behind.
import { ORIGINAL_TMPDIR, leftoverTempFiles, removeRequestTmpdir } from '../helpers/isolated-tmpdir';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Context, Next } from 'koa';
import { bootStrapi, request, type TestStrapi } from '../helpers/strapi';
import { RAISED_LIMITS } from '../helpers/app';
import { signUp } from '../helpers/members';
import { throwawayMembers } from '../helpers/throwaway-members';
import { joinPath, ownedRoutes, type OwnedRoute } from '../helpers/owned-routes';
import type { ApiError, Ingredient } from '../helpers/types';
import { profileMessages } from '../../src/contract/profileRules';
import { PROFILE_PICTURE_MAX_BYTES } from '../../src/uploads/picture-image';

const require = createRequire(import.meta.url);
const sharp = require('sharp') as typeof import('sharp').default;

/**
 * No 5xx from bad input (docs/security.md): malformed multipart, bodies over the limits, arrays
 * beyond sane lengths, wrong types... answer 4xx with a message, on every route this project owns.
 *
 * The routes are read from the running Strapi, so a new route is covered without editing this file,
 * and every one of them gets the whole corpus, without a token and with a member's token: the bad
 * bodies (SHAPES) on every route with a body method, the bad query strings (QUERY_SHAPES) on every
 * route, the bad path parameters (PARAMETER_SHAPES) on every route that has one. Add a shape to a
 * table and every route gets it. What the server answered is recorded on the server itself (a Koa
 * middleware in front of all others), so a request whose client went away mid-body is judged too.
 */

const USERS = 'plugin::users-permissions.user';
const INGREDIENTS = 'api::ingredient.ingredient';
const FILES = 'plugin::upload.file';
/** Request header carrying the id under which the server-side recorder files the answer. */
const ID_HEADER = 'x-bad-input-id';
/** koa-body reads (and strapi::body parses) the bodies of these methods only; DELETE bodies are ignored. */
const PARSED_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const BODY_METHODS = new Set([...PARSED_METHODS, 'DELETE']);
const CONCURRENCY = 8;

let app: TestStrapi;
let port: number;

// --- what the server answered, recorded on the server --------------------------------------------

interface Seen {
  status: number;
  thrown?: string;
}
const seen = new Map<string, Seen>();
const waiting = new Map<string, () => void>();
const record = (id: string, answer: Seen) => {
  seen.set(id, answer);
  waiting.get(id)?.();
};

/**
 * Puts a Koa middleware in front of every other (before the first request: Strapi composes its
 * handler lazily) that files each tagged request's final status, or the status Koa will give a
 * thrown error (500 unless it carries a 4xx/5xx one).
 */
function installRecorder(): void {
  const koa = app.strapi.server.app as unknown as { middleware: ((ctx: Context, next: Next) => Promise<void>)[] };
  koa.middleware.unshift(async (ctx, next) => {
    const id = ctx.get(ID_HEADER);
    try {
      await next();
      if (id) record(id, { status: ctx.status });
    } catch (error) {
      const status = Number((error as { status?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode);
      if (id) record(id, { status: status >= 400 && status < 600 ? status : 500, thrown: String(error) });
      throw error;
    }
  });
}

/** What the server answered the request tagged id, once it has (undefined if it has not within timeoutMs). */
async function serverAnswer(id: string, timeoutMs = 10_000): Promise<Seen | undefined> {
  if (!seen.has(id)) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      waiting.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    waiting.delete(id);
  }
  return seen.get(id);
}

// --- a raw HTTP client: any bytes, any declared length, cut off or not ---------------------------

type Mode =
  /** The whole body is sent; the server closes the connection after its answer. */
  | 'complete'
  /** The body is sent, then the client half-closes: with a Content-Length larger than sent, the body is cut off. */
  | 'half-close'
  /** Part of the body is sent, then the client drops the connection without waiting for an answer. */
  | 'disconnect';

interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
  /** Content-Length to declare (default: the body's length); ignored with Transfer-Encoding. */
  declaredLength?: number;
  mode?: Mode;
}
interface RawAnswer {
  /** null when no answer came back (the client went away, or the server dropped the connection first). */
  status: number | null;
  body: unknown;
  socketError?: string;
}

function parseAnswer(bytes: Buffer): { status: number | null; body: unknown } {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return { status: null, body: undefined };
  const head = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0])?.[1] ?? NaN);
  const chunked = head.some((line) => /^transfer-encoding:\s*chunked/i.test(line));
  let payload = bytes.subarray(end + 4);
  if (chunked) {
    const parts: Buffer[] = [];
    for (let at = 0; at < payload.length;) {
      const lineEnd = payload.indexOf('\r\n', at);
      const size = parseInt(payload.subarray(at, lineEnd).toString('latin1'), 16);
      if (!(size > 0)) break;
      parts.push(payload.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    payload = Buffer.concat(parts);
  }
  const text = payload.toString('utf8');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON; keep the text
  }
  return { status: Number.isNaN(status) ? null : status, body };
}

function send(req: RawRequest): Promise<RawAnswer> {
  const body = req.body ?? Buffer.alloc(0);
  const headers: Record<string, string> = { host: `127.0.0.1:${port}`, connection: 'close', ...req.headers };
  const hasLength = Object.keys(headers).some((name) => /^(content-length|transfer-encoding)$/i.test(name));
  if (!hasLength && (req.body !== undefined || req.declaredLength !== undefined)) {
    headers['content-length'] = String(req.declaredLength ?? body.length);
  }
  const head = `${req.method} ${req.path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;

  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let socketError: string | undefined;
    const socket = net.connect({ host: '127.0.0.1', port });
    const timer = setTimeout(() => {
      socketError = 'no answer within 15 s';
      socket.destroy();
    }, 15_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // EPIPE / ECONNRESET: the server answered (or gave up) before reading the whole body; judged by what it recorded.
    socket.on('error', (error: NodeJS.ErrnoException) => {
      socketError ??= error.code ?? error.message;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ ...parseAnswer(Buffer.concat(chunks)), socketError });
    });
    socket.on('connect', () => {
      socket.write(head);
      if (req.mode === 'disconnect') {
        socket.write(body, () => setTimeout(() => socket.destroy(), 30));
        return;
      }
      socket.write(body);
      if (req.mode === 'half-close') socket.end();
    });
  });
}

// --- the routes this project owns ------------------------------------------------------------------

/** The content API's mounted routes ("METHOD /path"), to check that the derived paths are real. */
function mountedRoutes(): Set<string> {
  const layers = app.strapi.server.api('content-api').listRoutes() as unknown as { methods: string[]; path: string | RegExp }[];
  return new Set(
    layers.flatMap((layer) =>
      layer.methods.map((method) => `${method} ${typeof layer.path === 'string' ? joinPath(layer.path) : String(layer.path)}`),
    ),
  );
}

// --- members -------------------------------------------------------------------------------------

interface Member {
  id: number;
  jwt: string;
}
/**
 * A throwaway member for one request: every request with a token but GET gets its own, so a route that
 * logs the member out or deletes the account (logout-all, delete-account) cannot spoil the next request.
 */
let throwawayMember: () => Promise<Member>;

// --- the corpus ----------------------------------------------------------------------------------

interface ShapeContext {
  route: OwnedRoute;
  /** The member whose token is sent, or null without a token. */
  member: Member | null;
}
interface Shape {
  name: string;
  /** The request (its path defaults to the route's, with :id the member's id and other parameters 1). */
  build(context: ShapeContext): Omit<RawRequest, 'method' | 'path'> & { path?: string };
  /**
   * The status every POST/PUT/PATCH route must answer, whoever asks (the body is refused before
   * routing). Left out when the route decides (the body was read).
   */
  expect?(route: OwnedRoute): number | undefined;
}

/** Routes that take multipart/form-data (file uploads); every other API route refuses it with 415 before reading it. */
const takesMultipart = (route: OwnedRoute) => route.method === 'POST' && route.path.endsWith('/upload');
/** Multipart shapes: 415 where files are not taken; onUpload (if known) where they are. */
const multipart = (onUpload?: number) => (route: OwnedRoute) => (takesMultipart(route) ? onUpload : 415);

/** Field names this project's routes read (auth, profile, payments, upload, roles); the JSON shapes fill all of them. */
const FIELDS = [
  'identifier',
  'password',
  'username',
  'email',
  'code',
  'passwordConfirmation',
  'currentPassword',
  'refreshToken',
  'deviceId',
  'priceId',
  'clientSecret',
  'cardNumber',
  'expiry',
  'cvc',
  'ingredients',
  'bmi',
  'diet_preference',
  'goal_weight',
  'goal_reminder',
  'personal_goal_note',
  'unit_system',
  'reminders_enabled',
  'date',
  'weight',
  'token',
  'data',
  'fileInfo',
  'ref',
  'refId',
  'field',
  'files',
  'id',
  'role',
  'name',
  'description',
  'type',
  'permissions',
  'users',
];
const everyField = (value: () => unknown) => Object.fromEntries(FIELDS.map((field) => [field, value()]));
const json = (value: unknown, headers: Record<string, string> = {}) => ({
  headers: { 'content-type': 'application/json', ...headers },
  body: Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)),
});
const deeplyNested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const range = (length: number, from = 1) => Array.from({ length }, (_, index) => index + from);

const BOUNDARY = '----carnivo-bad-input';
const formHeaders = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
/** The fields of a profile picture upload for this member (or a stranger's id without a token). */
const pictureFields = ({ member }: ShapeContext) =>
  [
    ['refId', String(member?.id ?? 1)],
    ['ref', USERS],
    ['field', 'profile_picture'],
  ]
    .map(([name, value]) => `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
const filePart = (bytes: Buffer, name = 'me.png', type = 'image/png') =>
  Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="files"; filename="${name}"\r\ncontent-type: ${type}\r\n\r\n`),
    bytes,
    Buffer.from('\r\n'),
  ]);
const closing = Buffer.from(`--${BOUNDARY}--\r\n`);
// A real PNG header, so the part looks like a picture until it is cut off.
const PNG_START = Buffer.from('89504e470d0a1a0a0000000d4948445200000040000000400802000000', 'hex');
const GZIP_BOMB = zlib.gzipSync(Buffer.from(`{"a":"${'a'.repeat(2 * 1024 * 1024)}"}`));
// Incompressible: the limit is passed while most of the compressed body is still on its way.
const GZIP_LARGE = zlib.gzipSync(Buffer.from(JSON.stringify({ a: crypto.randomBytes(1024 * 1024).toString('base64') })));

const SHAPES: Shape[] = [
  // multipart/form-data
  {
    name: 'multipart/form-data without a boundary',
    build: (context) => ({
      headers: { 'content-type': 'multipart/form-data' },
      body: Buffer.concat([Buffer.from(pictureFields(context)), closing]),
    }),
    expect: multipart(400),
  },
  {
    name: 'multipart/form-data with an empty boundary',
    build: () => ({ headers: { 'content-type': 'multipart/form-data; boundary=' }, body: Buffer.from('--\r\n\r\n----\r\n') }),
    // Not a valid media type, so nothing reads it as multipart: an unreadable Content-Type.
    expect: () => 415,
  },
  {
    name: 'multipart/form-data whose closing boundary never comes (the body is complete)',
    build: (context) => ({
      headers: formHeaders,
      body: Buffer.concat([Buffer.from(pictureFields(context)), filePart(PNG_START).subarray(0, -2)]),
    }),
    expect: multipart(400),
  },
  {
    name: 'multipart/form-data cut off mid-file: Content-Length larger than sent, then the client half-closes',
    build: (context) => {
      const body = Buffer.concat([Buffer.from(pictureFields(context)), filePart(PNG_START).subarray(0, -2)]);
      return { headers: formHeaders, body, declaredLength: body.length + 4096, mode: 'half-close' };
    },
    expect: multipart(400),
  },
  {
    name: 'multipart/form-data cut off mid-file: the client drops the connection',
    build: (context) => {
      const body = Buffer.concat([Buffer.from(pictureFields(context)), filePart(PNG_START).subarray(0, -2)]);
      return { headers: formHeaders, body, declaredLength: body.length + 4096, mode: 'disconnect' };
    },
    expect: multipart(400),
  },
  {
    name: 'multipart/form-data that is not multipart at all under its boundary',
    build: () => ({ headers: formHeaders, body: Buffer.from('\u0000\u00ff garbage, no boundary anywhere '.repeat(64), 'latin1') }),
    expect: multipart(400),
  },
  {
    name: 'multipart/form-data part without headers',
    build: () => ({ headers: formHeaders, body: Buffer.from(`--${BOUNDARY}\r\n\r\nvalue\r\n--${BOUNDARY}--\r\n`) }),
    expect: multipart(),
  },
  {
    name: 'multipart/form-data with 2,000 fields',
    build: () => ({
      headers: formHeaders,
      body: Buffer.from(
        range(2000)
          .map((n) => `--${BOUNDARY}\r\ncontent-disposition: form-data; name="f${n}"\r\n\r\n${n}\r\n`)
          .join('') + `--${BOUNDARY}--\r\n`,
      ),
    }),
    expect: multipart(413),
  },
  {
    name: 'multipart/form-data with a picture over the upload size limit',
    build: (context) => ({
      headers: formHeaders,
      body: Buffer.concat([
        Buffer.from(pictureFields(context)),
        filePart(Buffer.concat([PNG_START, Buffer.alloc(PROFILE_PICTURE_MAX_BYTES + 64 * 1024)])),
        closing,
      ]),
    }),
    expect: multipart(),
  },
  {
    name: 'multipart/form-data with an unknown Content-Transfer-Encoding',
    build: () => ({
      headers: formHeaders,
      body: Buffer.from(
        `--${BOUNDARY}\r\ncontent-disposition: form-data; name="files"; filename="a.png"\r\ncontent-transfer-encoding: x-unknown\r\n\r\nabc\r\n--${BOUNDARY}--\r\n`,
      ),
    }),
    expect: multipart(415),
  },
  // JSON that cannot be read
  { name: 'invalid JSON', build: () => json('{"identifier": "a", "password": '), expect: () => 400 },
  { name: 'JSON with a trailing comma and comments', build: () => json('{"a": 1, /* x */ }'), expect: () => 400 },
  { name: 'a JSON array', build: () => json([1, 2, 3]), expect: () => 400 },
  { name: 'JSON null', build: () => json('null'), expect: () => 400 },
  { name: 'a JSON string', build: () => json('"just a string"'), expect: () => 400 },
  { name: 'a JSON number', build: () => json('12345'), expect: () => 400 },
  { name: 'an empty JSON body (Content-Length 0)', build: () => json('') },
  {
    name: 'JSON over the body size limit (1.2 MB)',
    build: () => json({ data: 'x'.repeat(1.2 * 1024 * 1024) }),
    expect: () => 413,
  },
  {
    name: 'JSON cut off: Content-Length larger than sent, then the client half-closes',
    build: () => ({ ...json('{"identifier": "someone", "password": "so'), declaredLength: 4096, mode: 'half-close' as const }),
    expect: () => 400,
  },
  {
    name: 'JSON cut off: the client drops the connection',
    build: () => ({ ...json('{"identifier": "someone", "password": "so'), declaredLength: 4096, mode: 'disconnect' as const }),
    expect: () => 400,
  },
  {
    name: 'chunked JSON that never ends: the client drops the connection',
    build: () => ({
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: Buffer.from('10\r\n{"identifier": "\r\n'),
      mode: 'disconnect' as const,
    }),
    expect: () => 400,
  },
  { name: 'an unknown Content-Encoding', build: () => json({ a: 1 }, { 'content-encoding': 'x-carnivo' }), expect: () => 415 },
  {
    name: 'Content-Encoding gzip over bytes that are not gzip',
    build: () => ({
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: Buffer.from('{"not": "gzip at all"}'),
    }),
    expect: () => 400,
  },
  {
    name: 'Content-Encoding gzip cut off mid-stream',
    build: () => ({
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: zlib.gzipSync(Buffer.from(JSON.stringify({ a: 'b'.repeat(5000) }))).subarray(0, 40),
    }),
    expect: () => 400,
  },
  {
    name: 'a gzip bomb (2 MB of JSON in 2 KB)',
    build: () => ({ headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: GZIP_BOMB }),
    expect: () => 413,
  },
  // strapi::body reads JSON as UTF-8 whatever the charset says.
  { name: 'an unknown charset', build: () => json({ a: 1 }, { 'content-type': 'application/json; charset=x-carnivo' }) },
  {
    name: 'Content-Encoding br over bytes that are not brotli',
    build: () => ({ headers: { 'content-type': 'application/json', 'content-encoding': 'br' }, body: Buffer.from('{"not": "brotli"}') }),
    expect: () => 400,
  },
  {
    name: 'Content-Encoding gzip over the limit while still arriving (1 MB compressed)',
    build: () => ({ headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: GZIP_LARGE }),
    expect: () => 413,
  },
  {
    name: 'Content-Encoding gzip: the client drops the connection mid-stream',
    build: () => ({
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: GZIP_BOMB.subarray(0, 1000),
      declaredLength: GZIP_BOMB.length,
      mode: 'disconnect' as const,
    }),
    expect: () => 400,
  },
  // other content types
  {
    name: 'text/plain',
    build: () => ({ headers: { 'content-type': 'text/plain' }, body: Buffer.from('identifier=a&password=b') }),
    expect: () => 415,
  },
  {
    name: 'text/html',
    build: () => ({ headers: { 'content-type': 'text/html' }, body: Buffer.from('<h1>hello</h1>') }),
    expect: () => 415,
  },
  { name: 'no body at all (no Content-Type, no Content-Length)', build: () => ({}) },
  { name: 'Content-Length 0 without Content-Type', build: () => ({ body: Buffer.alloc(0) }) },
  { name: 'application/xml', build: () => ({ headers: { 'content-type': 'application/xml' }, body: Buffer.from('<a>1</a>') }) },
  { name: 'a body without Content-Type', build: () => ({ body: Buffer.from('{"identifier":"a"}') }) },
  {
    name: 'urlencoded over the form size limit',
    build: () => ({
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.from(`data=${'x'.repeat(1.2 * 1024 * 1024)}`),
    }),
    expect: () => 413,
  },
  {
    name: 'urlencoded with 1,500 parameters and deep brackets',
    build: () => ({
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.from(
        range(1500)
          .map((n) => `a${n}[b][c][d][e][f][g]=${n}`)
          .join('&'),
      ),
    }),
  },
  // JSON objects of the wrong shape (read, then judged by the route)
  { name: 'an empty object', build: () => json({}) },
  { name: 'every field null', build: () => json(everyField(() => null)) },
  { name: 'every field a number as a string', build: () => json(everyField(() => '12')) },
  { name: 'every field a number', build: () => json(everyField(() => 12)) },
  {
    name: 'every field a huge or odd number',
    build: () =>
      json(`{${FIELDS.map((field, index) => `"${field}": ${['1e309', '-0', '9007199254740993', '-1', '0.5'][index % 5]}`).join(',')}}`),
  },
  { name: 'every field a boolean', build: () => json(everyField(() => true)) },
  { name: 'every field an object (query operators)', build: () => json(everyField(() => ({ $ne: null, $gt: '' }))) },
  { name: 'every field a string where an object or list is expected', build: () => json(everyField(() => 'not an object')) },
  { name: 'every field a 2,000-element array', build: () => json(everyField(() => range(2_000))) },
  {
    name: 'every field an 8 KB string with NUL bytes and lone surrogates',
    build: () => json(everyField(() => `\u0000\ud800${'x'.repeat(8 * 1024)}`)),
  },
  {
    name: 'every field nested 500 levels deep',
    build: () => json(`{${FIELDS.map((field) => `"${field}": ${deeplyNested(500)}`).join(',')}}`),
    expect: () => 400,
  },
  { name: 'a body nested 100,000 levels deep', build: () => json(deeplyNested(100_000)), expect: () => 400 },
  { name: 'ingredients: 70,000 ids', build: () => json({ ingredients: range(70_000) }) },
  { name: 'data: 20,000 objects', build: () => json({ data: range(20_000).map((id) => ({ id })) }) },
  {
    name: '__proto__ and constructor keys',
    build: () =>
      json(
        '{"__proto__": {"polluted": true, "isAdmin": true}, "constructor": {"prototype": {"polluted": true}}, "username": {"__proto__": {"polluted": true}}}',
      ),
    // strapi::body's JSON parser refuses a __proto__ key.
    expect: () => 400,
  },
  // headers
  {
    name: 'a garbage bearer token',
    build: () => json({ identifier: 'a', password: 'b' }, { authorization: `Bearer ${'x'.repeat(8000)}.${'y'.repeat(100)}` }),
  },
];

/** Bad query strings, for every route (GET included): Strapi parses any route's query (strapi::query). */
const QUERY_SHAPES: Shape[] = [
  ['filters nested 30 levels deep', `filters${'[a]'.repeat(30)}=1`],
  ['filters on private fields', 'filters[password][$startsWith]=a&filters[resetPasswordToken][$notNull]=true'],
  [
    'an $in of 600 ids',
    range(600)
      .map((n) => `filters[id][$in]=${n}`)
      .join('&'),
  ],
  ['unknown operators and raw SQL', "filters[id][$where]=1&filters[$raw]=1&filters[username][$eq]=x'%20OR%201=1--"],
  ['populate everything, deeply', 'populate[role][populate][users][populate][role][populate]=*&populate[ingredients][populate]=*'],
  ['populate private relations and unknown fields', 'populate[0]=role&populate[1]=nope&populate[users_permissions_user]=*'],
  ['private or unknown fields', 'fields[0]=password&fields[1]=resetPasswordToken&fields[2]=nope&fields=*'],
  ['sort by private or unknown fields', 'sort[0]=password:desc&sort[1]=nope:sideways&sort[$gt]=1'],
  [
    'pagination nonsense',
    'pagination[page]=-1&pagination[pageSize]=abc&pagination[limit]=1e309&pagination[start]=-5&pagination[withCount]=maybe',
  ],
  ['a huge page size', 'pagination[pageSize]=100000000&pagination[page]=99999999999999999999'],
  ['malformed percent-encoding', 'filters[id]=%E0%A4%A&%zz=1&populate=%'],
  ['strings where objects are expected, objects where strings are', 'filters=abc&populate[0][1][2]=x&status[a]=b&locale[$ne]=x'],
  ['NUL bytes and nulls', 'filters[username][$eq]=%00&filters[email][$null]&_q=%00'],
].map(([name, query]) => ({
  name: `query: ${name}`,
  build: ({ route, member }: ShapeContext) => ({
    path: `${fillParams(route.path, member)}?${query}`,
    ...(PARSED_METHODS.has(route.method) ? json({}) : {}),
  }),
}));

/** Bad path parameters (:id and the like), for every route that has one. */
const PARAMETER_SHAPES: Shape[] = [
  '%E0%A4%A',
  '%00',
  '-1',
  '0',
  '1.5',
  '1e309',
  '99999999999999999999',
  'abc',
  '..%2F..%2Fadmin',
  '%20',
  'x'.repeat(2000),
].map((value) => ({
  name: `path parameter: ${value.length > 20 ? `${value.slice(0, 5)}… (${value.length} characters)` : value}`,
  build: ({ route }: ShapeContext) => ({
    path: route.path.replace(/:[A-Za-z_]+/g, value).replace('(.*)', value),
    ...(PARSED_METHODS.has(route.method) ? json({}) : {}),
  }),
}));
const hasParameter = (route: OwnedRoute) => /:[A-Za-z_]|\(\.\*\)/.test(route.path);

// --- running the corpus --------------------------------------------------------------------------

const fillParams = (routePath: string, member: Member | null) =>
  routePath.replace(/:([A-Za-z_]+)/g, (_, name: string) => (name === 'id' && member ? String(member.id) : '1')).replace('(.*)', 'local');

async function inPool<T>(items: T[], run: (item: T) => Promise<void>, concurrency = CONCURRENCY): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await run(items[next++]);
    }),
  );
}

/** Sends one shape to one route and returns what is wrong with the answer (empty when all is well). */
async function probe(route: OwnedRoute, shape: Shape, withToken: boolean): Promise<string[]> {
  // GET and HEAD change nothing: the registered member's token will do.
  const caller = !withToken ? null : route.method === 'GET' || route.method === 'HEAD' ? member : await throwawayMember();
  const id = crypto.randomUUID();
  const built = shape.build({ route, member: caller });
  const answer = await send({
    method: route.method,
    ...built,
    path: built.path ?? fillParams(route.path, caller),
    headers: { ...(caller ? { authorization: `Bearer ${caller.jwt}` } : {}), ...built.headers, [ID_HEADER]: id },
  });
  const recorded = await serverAnswer(id);
  const where = `${route.method} ${route.path} [${shape.name}] ${withToken ? 'member' : 'no token'}`;
  const problems: string[] = [];
  if (!recorded) {
    problems.push(`${where}: the server recorded no answer (client saw ${answer.status ?? answer.socketError})`);
    return problems;
  }
  if (recorded.status >= 500)
    problems.push(`${where}: server answered ${recorded.status}${recorded.thrown ? ` (${recorded.thrown})` : ''}`);
  // A client that half-closes before its declared length gets Node's own bare "400 Bad Request" (its HTTP
  // parser answers as the connection ends, before the app can); the app's answer, recorded above, is judged instead.
  const bareParserAnswer = built.mode === 'half-close' && answer.status === 400 && answer.body === '';
  if (answer.status !== null && !bareParserAnswer) {
    if (answer.status !== recorded.status) problems.push(`${where}: client saw ${answer.status}, server recorded ${recorded.status}`);
    const message = (answer.body as Partial<ApiError> | undefined)?.error?.message;
    if (answer.status >= 400 && !(typeof message === 'string' && message.trim() !== '')) {
      problems.push(`${where}: ${answer.status} without an error message: ${JSON.stringify(answer.body).slice(0, 200)}`);
    }
  } else if ((built.mode ?? 'complete') === 'complete' && !answer.socketError) {
    problems.push(`${where}: no answer reached the client`);
  }
  const expected = PARSED_METHODS.has(route.method) ? shape.expect?.(route) : undefined;
  if (expected !== undefined && recorded.status !== expected) problems.push(`${where}: expected ${expected}, got ${recorded.status}`);
  return problems;
}

// --- set-up ----------------------------------------------------------------------------------------

interface Me {
  id: number;
  ingredients: Ingredient[];
  profile_picture: { id: number } | null;
}
/** The member of the specific tests, registered like anyone; the corpus sends their token to GET routes. */
let member: Member;
let knownIngredients: number;

const me = async () => {
  const res = await request<Me>(app.baseUrl, 'GET', '/api/users/me?populate=*', { token: member.jwt });
  expect(res.status).toBe(200);
  return res.body;
};
const storedIngredientIds = async () => (await me()).ingredients.map((ingredient) => ingredient.id).sort((a, b) => a - b);
const putProfile = (body: unknown) => request<Me & ApiError>(app.baseUrl, 'PUT', `/api/users/${member.id}`, { body, token: member.jwt });

beforeAll(async () => {
  app = await bootStrapi({
    // The SQLite file outside the request temp directory, which must stay empty.
    databaseFile: path.join(ORIGINAL_TMPDIR, `carnivo-test-${crypto.randomUUID()}.db`),
    // The auth routes get the whole corpus; their rate limits are not what this file tests (a 429
    // would stop the body before the route), so they are raised.
    env: RAISED_LIMITS,
  });
  port = Number(new URL(app.baseUrl).port);
  installRecorder();
  // Koa prints every error of a connection the client cut short ("Parse Error" at socketOnEnd); the
  // corpus makes dozens. Answers are judged by the recorder instead, which also sees what Koa would print.
  (app.strapi.server.app as unknown as { silent: boolean }).silent = true;

  // The member of the specific tests registers like anyone, from a client address of its own.
  member = await signUp(app.baseUrl, 'badinput', { from: '127.0.0.77' });

  throwawayMember = await throwawayMembers(app.strapi, member.id, 'c');
  knownIngredients = await app.strapi.db.query(INGREDIENTS).count({});
}, 240_000);

afterAll(async () => {
  await app?.stop();
  removeRequestTmpdir();
});

// --- tests -----------------------------------------------------------------------------------------

describe('every route this project owns answers bad input with 4xx and a message, never 5xx', () => {
  let routes: OwnedRoute[];
  let bodyRoutes: OwnedRoute[];

  beforeAll(() => {
    routes = ownedRoutes(app);
    bodyRoutes = routes.filter((route) => BODY_METHODS.has(route.method));
  });

  it('the routes are read from Strapi, and every one of them is mounted on the content API', () => {
    const mounted = mountedRoutes();
    for (const route of routes) expect(mounted.has(`${route.method} ${route.path}`), `${route.method} ${route.path}`).toBe(true);
    const list = routes.map((route) => `${route.method} ${route.path}`);
    // A few that must be there (the filter is not allowed to drop them).
    expect(list).toEqual(
      expect.arrayContaining([
        'PUT /api/users/:id',
        'POST /api/upload',
        'POST /api/auth/local/register',
        'POST /api/subscriptions',
        'POST /api/payments/sandbox/confirm',
        'DELETE /api/users-permissions/users/delete-account',
      ]),
    );
    // The e-mail plugin's send route is in (its service is the project's queue); Strapi's own plugins the
    // project does not extend, and the admin panel, are not.
    expect(list).toContain('POST /api/email');
    expect(list.filter((route) => /\/(admin|i18n|content-type-builder)(\/|$)/.test(route))).toEqual([]);
    expect(bodyRoutes.length).toBeGreaterThan(15);
  });

  it.each([
    ['without a token', false],
    ["with a member's token", true],
  ] as const)(
    'the whole corpus, %s',
    async (_label, withToken) => {
      // A body refused before routing (expect) is refused before authentication too: the token cannot
      // change that answer, so with a token those go only where the body is not read (DELETE).
      const decidedBeforeRouting = (route: OwnedRoute, shape: Shape) =>
        PARSED_METHODS.has(route.method) && shape.expect?.(route) !== undefined;
      const cases = [
        // Bodies: every route with a body method.
        ...bodyRoutes.flatMap((route) =>
          SHAPES.filter((shape) => !withToken || !decidedBeforeRouting(route, shape)).map((shape) => ({ route, shape })),
        ),
        // Query strings: every route; path parameters: every route that has one.
        ...routes.flatMap((route) => QUERY_SHAPES.map((shape) => ({ route, shape }))),
        ...routes.filter(hasParameter).flatMap((route) => PARAMETER_SHAPES.map((shape) => ({ route, shape }))),
      ];
      const problems: string[] = [];
      await inPool(cases, async ({ route, shape }) => {
        problems.push(...(await probe(route, shape, withToken)));
      });
      expect(problems).toEqual([]);
      expect(await leftoverTempFiles()).toEqual([]);
      // Thousands of requests, more with every route: a bound for a busy two-core machine, not a budget.
    },
    240_000,
  );
});

describe('PUT /api/users/:id: ingredients are at most the known list, duplicates removed', () => {
  beforeAll(async () => {
    const res = await putProfile({ ingredients: [1, 2] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await storedIngredientIds()).toEqual([1, 2]);
  });

  it('70,000 ingredient ids answer 400 with a clear message, and the stored ingredients stay', async () => {
    const res = await putProfile({ ingredients: range(70_000) });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/ingredient/i);
    expect(await storedIngredientIds()).toEqual([1, 2]);
  });

  it('70,000 copies of a known id are refused too (a list that long is never sane)', async () => {
    const res = await putProfile({ ingredients: Array.from({ length: 70_000 }, () => 1) });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/ingredient/i);
    expect(await storedIngredientIds()).toEqual([1, 2]);
  });

  it('duplicates are removed: [1, 1, 2] stores [1, 2]', async () => {
    const res = await putProfile({ ingredients: [3, 3, 3] });
    expect(res.status).toBe(200);
    expect(await storedIngredientIds()).toEqual([3]);
    const again = await putProfile({ ingredients: [1, 1, 2] });
    expect(again.status).toBe(200);
    expect(await storedIngredientIds()).toEqual([1, 2]);
  });

  it('more distinct ids than there are known ingredients are refused; duplicates do not count', async () => {
    expect(knownIngredients).toBeGreaterThan(1);
    const res = await putProfile({ ingredients: range(knownIngredients + 1) });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(profileMessages.tooManyIngredients(knownIngredients));
    expect(await storedIngredientIds()).toEqual([1, 2]);

    const all = range(knownIngredients);
    const withDuplicates = await putProfile({ ingredients: [...all, ...all] });
    expect(withDuplicates.status).toBe(200);
    expect(await storedIngredientIds()).toEqual(all);
    expect((await putProfile({ ingredients: [1, 2] })).status).toBe(200);
  });

  it('an unknown id or an id that is not a positive integer is refused, and nothing changes', async () => {
    for (const ingredients of [[1, 999_999], [1, '2'], [1.5], [-1], [0], [null], 'all', { $in: [1] }]) {
      const res = await putProfile({ ingredients });
      expect(res.status, JSON.stringify(ingredients)).toBe(400);
      expect(res.body.error.message).toMatch(/ingredient/i);
    }
    expect(await storedIngredientIds()).toEqual([1, 2]);
  });
});

describe('POST /api/upload: malformed multipart answers 4xx, stores nothing and leaves no temp file', () => {
  const upload: OwnedRoute = { owner: 'plugin::upload', method: 'POST', path: '/api/upload', handler: 'content-api.upload' };
  let stored: string[] = [];

  // The member has a picture, which every refused upload must leave in place.
  beforeAll(async () => {
    const bytes = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#b22222' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'me.png');
    for (const [name, value] of Object.entries({ refId: String(member.id), ref: USERS, field: 'profile_picture' }))
      form.append(name, value);
    const res = await fetch(`${app.baseUrl}/api/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${member.jwt}` },
      body: form,
    });
    expect(res.status).toBe(201);
    const [file] = (await res.json()) as { url: string; formats: Record<string, { url: string }> | null }[];
    stored = [file.url, ...Object.values(file.formats ?? {}).map((format) => format.url)].map((url) =>
      path.join(app.strapi.dirs.static.public, url),
    );
    expect((await me()).profile_picture).not.toBeNull();
  });
  afterAll(() => {
    for (const file of stored) fs.rmSync(file, { force: true });
  });

  const cases: { name: string; build(): Omit<RawRequest, 'method' | 'path'>; status: number }[] = [
    {
      name: 'no boundary',
      build: () => ({
        headers: { 'content-type': 'multipart/form-data' },
        body: Buffer.concat([Buffer.from(pictureFields({ route: upload, member })), filePart(PNG_START), closing]),
      }),
      status: 400,
    },
    {
      name: 'the closing boundary never comes',
      build: () => ({
        headers: formHeaders,
        body: Buffer.concat([Buffer.from(pictureFields({ route: upload, member })), filePart(PNG_START).subarray(0, -2)]),
      }),
      status: 400,
    },
    {
      name: 'cut off mid-file (Content-Length larger than sent, then the client half-closes)',
      build: () => {
        const body = Buffer.concat([
          Buffer.from(pictureFields({ route: upload, member })),
          filePart(Buffer.concat([PNG_START, crypto.randomBytes(64 * 1024)])).subarray(0, -2),
        ]);
        return { headers: formHeaders, body, declaredLength: body.length + 100_000, mode: 'half-close' as const };
      },
      status: 400,
    },
    {
      name: 'cut off mid-file (the client drops the connection)',
      build: () => {
        const body = Buffer.concat([
          Buffer.from(pictureFields({ route: upload, member })),
          filePart(Buffer.concat([PNG_START, crypto.randomBytes(64 * 1024)])).subarray(0, -2),
        ]);
        return { headers: formHeaders, body, declaredLength: body.length + 100_000, mode: 'disconnect' as const };
      },
      status: 400,
    },
  ];

  it.each(cases.map((entry) => [entry.name, entry] as const))('%s', async (_name, entry) => {
    const before = { picture: (await me()).profile_picture, files: await app.strapi.db.query(FILES).count({}) };
    const id = crypto.randomUUID();
    const built = entry.build();
    const answer = await send({
      method: 'POST',
      path: '/api/upload',
      ...built,
      headers: { ...built.headers, authorization: `Bearer ${member.jwt}`, [ID_HEADER]: id },
    });
    const recorded = await serverAnswer(id);
    expect(recorded?.status).toBe(entry.status);
    if (built.mode === 'complete' || built.mode === undefined) {
      expect(answer.status).toBe(entry.status);
      expect((answer.body as ApiError).error.message).toMatch(/^The request body could not be read: /);
    }
    expect(await leftoverTempFiles()).toEqual([]);
    expect((await me()).profile_picture).toEqual(before.picture);
    expect(await app.strapi.db.query(FILES).count({})).toBe(before.files);
  });
});
