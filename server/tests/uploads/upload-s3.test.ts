import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import {
  S3_PROVIDER,
  UploadConfigError,
  s3PublicBaseUrl,
  uploadMediaOrigins,
  uploadProviderConfig,
  uploadProviderName,
  type Env,
  type S3ProviderOptions,
} from '../../src/uploads/upload-config';
import { startS3Double, type S3Double } from '../helpers/s3-double';
import { request } from '../helpers/strapi';
import { boot, type TestApp } from '../helpers/app';
import type { Member } from '../helpers/members';
import type { ApiError } from '../helpers/types';

/**
 * Uploads on S3-compatible storage (docs/uploads.md):
 * 1. uploadProviderConfig: local by default, S3 by S3_BUCKET or UPLOAD_PROVIDER=s3, every
 *    misconfiguration refused, and how each variable reaches the provider's options.
 * 2. The public base URL is where the AWS SDK really puts the objects (the SDK resolves the URL).
 * 3. The real @strapi/provider-upload-aws-s3, given this config, against a local S3 double.
 * 4. Strapi booted on the S3 double: the profile-picture rules (ownership, content checks, removal
 *    of the previous picture, deletion with the account) and the Content-Security-Policy.
 */

const require = createRequire(import.meta.url);
const sharp = require('sharp') as typeof import('sharp').default;
// The provider, and the AWS SDK it depends on (resolved from the provider, so the same copy).
const providerRequire = createRequire(require.resolve('@strapi/provider-upload-aws-s3'));
const s3Provider = require('@strapi/provider-upload-aws-s3') as { init(options: S3ProviderOptions): S3ProviderInstance };
const { S3Client, PutObjectCommand } = providerRequire('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');

interface ProviderFile {
  hash: string;
  ext: string;
  mime: string;
  buffer?: Buffer;
  url?: string;
}
interface S3ProviderInstance {
  upload(file: ProviderFile): Promise<void>;
  delete(file: ProviderFile): Promise<unknown>;
  isPrivate(): boolean;
}

const s3Options = (env: Env) => {
  const config = uploadProviderConfig(env);
  if (config.provider !== S3_PROVIDER) throw new Error(`expected the S3 provider, got ${config.provider}`);
  return config.providerOptions;
};

function expectConfigError(env: Env, message: RegExp) {
  let thrown: unknown;
  try {
    uploadProviderConfig(env);
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `no error for ${JSON.stringify(env)}`).toBeInstanceOf(UploadConfigError);
  const error = thrown as UploadConfigError;
  expect(error.name).toBe('UploadConfigError');
  expect(error.message).toMatch(/^Upload configuration: /);
  expect(error.message).toMatch(message);
}

describe('uploadProviderConfig: which provider', () => {
  it('stores on local disk when nothing is configured', () => {
    expect(uploadProviderConfig({})).toEqual({ provider: 'local' });
    expect(uploadProviderName({})).toBe('local');
    // Blank values count as unset.
    expect(uploadProviderConfig({ UPLOAD_PROVIDER: '', S3_BUCKET: '   ' })).toEqual({ provider: 'local' });
  });

  it('stores on local disk with UPLOAD_PROVIDER=local, even when S3 settings are present', () => {
    expect(uploadProviderConfig({ UPLOAD_PROVIDER: 'local', S3_BUCKET: 'carnivo-media', S3_REGION: 'eu-west-3' })).toEqual({
      provider: 'local',
    });
    expect(uploadProviderConfig({ UPLOAD_PROVIDER: ' LOCAL ', S3_ENDPOINT: 'https://minio.example.com' })).toEqual({ provider: 'local' });
  });

  it('switches to S3 when S3_BUCKET is set', () => {
    const config = uploadProviderConfig({ S3_BUCKET: 'carnivo-media' });
    expect(config.provider).toBe('aws-s3');
    expect(uploadProviderName({ S3_BUCKET: 'carnivo-media' })).toBe('s3');
  });

  it('switches to S3 with UPLOAD_PROVIDER=s3 (any case) and a bucket', () => {
    expect(uploadProviderConfig({ UPLOAD_PROVIDER: 's3', S3_BUCKET: 'carnivo-media' }).provider).toBe('aws-s3');
    expect(uploadProviderConfig({ UPLOAD_PROVIDER: 'S3', S3_BUCKET: 'carnivo-media' }).provider).toBe('aws-s3');
  });

  it('defaults to AWS in us-east-1, no endpoint, no keys (the SDK finds them), no ACL sent', () => {
    const options = s3Options({ S3_BUCKET: 'carnivo-media' });
    expect(options).toEqual({
      baseUrl: 'https://carnivo-media.s3.us-east-1.amazonaws.com',
      s3Options: {
        region: 'us-east-1',
        forcePathStyle: false,
        params: { Bucket: 'carnivo-media', ACL: undefined },
      },
    });
    // Present though undefined: the provider adds ACL public-read only when the key is missing.
    expect('ACL' in options.s3Options.params).toBe(true);
  });
});

describe('uploadProviderConfig: misconfiguration fails at start-up', () => {
  it('UPLOAD_PROVIDER=s3 without S3_BUCKET', () => {
    expectConfigError({ UPLOAD_PROVIDER: 's3' }, /UPLOAD_PROVIDER=s3 needs S3_BUCKET/);
    expectConfigError({ UPLOAD_PROVIDER: 's3', S3_REGION: 'eu-west-3', S3_BUCKET: ' ' }, /UPLOAD_PROVIDER=s3 needs S3_BUCKET/);
  });

  it('an unknown UPLOAD_PROVIDER', () => {
    expectConfigError({ UPLOAD_PROVIDER: 'gcs', S3_BUCKET: 'carnivo-media' }, /UPLOAD_PROVIDER must be "local" or "s3", not "gcs"/);
  });

  it('S3_* settings without S3_BUCKET, naming each of them', () => {
    expectConfigError(
      { S3_REGION: 'eu-west-3' },
      /^Upload configuration: S3_REGION is set but S3_BUCKET is not: set S3_BUCKET .* or UPLOAD_PROVIDER=local/,
    );
    expectConfigError(
      {
        S3_ENDPOINT: 'https://minio.example.com',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_PUBLIC_URL: 'https://media.example.com',
      },
      /S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_PUBLIC_URL are set but S3_BUCKET is not/,
    );
    for (const key of ['S3_FORCE_PATH_STYLE', 'S3_ROOT_PATH', 'S3_ACL']) {
      expectConfigError({ [key]: 'x' }, new RegExp(`${key} is set but S3_BUCKET is not`));
    }
  });

  it('half a key pair', () => {
    const both = /set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither/;
    expectConfigError({ S3_BUCKET: 'carnivo-media', S3_ACCESS_KEY_ID: 'AKIAEXAMPLE' }, both);
    expectConfigError({ S3_BUCKET: 'carnivo-media', S3_SECRET_ACCESS_KEY: 'secret' }, both);
    expectConfigError({ S3_BUCKET: 'carnivo-media', S3_ACCESS_KEY_ID: 'AKIAEXAMPLE', S3_SECRET_ACCESS_KEY: '  ' }, both);
  });

  it('an endpoint or public URL that is not an http(s) URL', () => {
    const bucket = { S3_BUCKET: 'carnivo-media' };
    expectConfigError(
      { ...bucket, S3_ENDPOINT: 'minio.example.com:9000' },
      /S3_ENDPOINT "minio.example.com:9000" must be an http:\/\/ or https:\/\/ URL/,
    );
    expectConfigError(
      { ...bucket, S3_ENDPOINT: 'ftp://minio.example.com' },
      /S3_ENDPOINT "ftp:\/\/minio.example.com" must be an http:\/\/ or https:\/\/ URL/,
    );
    expectConfigError({ ...bucket, S3_ENDPOINT: 'not a url' }, /S3_ENDPOINT "not a url" is not a URL/);
    expectConfigError({ ...bucket, S3_PUBLIC_URL: 'media.carnivo.example' }, /S3_PUBLIC_URL "media.carnivo.example" is not a URL/);
    expectConfigError({ ...bucket, S3_PUBLIC_URL: 'javascript:alert(1)' }, /S3_PUBLIC_URL .* must be an http:\/\/ or https:\/\/ URL/);
    expectConfigError(
      { ...bucket, S3_PUBLIC_URL: 'https://media.carnivo.example/?v=1' },
      /S3_PUBLIC_URL .* must not carry a query, a fragment or credentials/,
    );
    expectConfigError(
      { ...bucket, S3_ENDPOINT: 'https://user:pass@minio.example.com' },
      /S3_ENDPOINT .* must not carry a query, a fragment or credentials/,
    );
  });

  it('a bucket name that is not one (e.g. a key prefix in it)', () => {
    expectConfigError({ S3_BUCKET: 'carnivo-media/pictures' }, /S3_BUCKET "carnivo-media\/pictures" is not a bucket name .* S3_ROOT_PATH/);
    expectConfigError({ S3_BUCKET: 's3://carnivo-media' }, /S3_BUCKET "s3:\/\/carnivo-media" is not a bucket name/);
  });

  it('a region that is not one', () => {
    expectConfigError({ S3_BUCKET: 'carnivo-media', S3_REGION: 'eu west 3' }, /S3_REGION "eu west 3" is not a region such as eu-west-3/);
    expectConfigError({ S3_BUCKET: 'carnivo-media', S3_REGION: 'https://s3.eu-west-3.amazonaws.com' }, /S3_REGION .* is not a region/);
  });

  it('S3_FORCE_PATH_STYLE that is not a boolean', () => {
    expectConfigError({ S3_BUCKET: 'carnivo-media', S3_FORCE_PATH_STYLE: 'yes' }, /S3_FORCE_PATH_STYLE must be true or false, not "yes"/);
  });

  it('a private (or unknown) ACL: the site links the pictures directly', () => {
    for (const acl of ['private', 'authenticated-read', 'public']) {
      expectConfigError(
        { S3_BUCKET: 'carnivo-media', S3_ACL: acl },
        new RegExp(`S3_ACL must be empty .* not "${acl}"; the site links the pictures directly`),
      );
    }
  });

  it('an S3_ROOT_PATH that climbs out with . or ..', () => {
    expectConfigError(
      { S3_BUCKET: 'carnivo-media', S3_ROOT_PATH: 'carnivo/../other' },
      /S3_ROOT_PATH "carnivo\/..\/other" must not contain . or .. segments/,
    );
    expectConfigError({ S3_BUCKET: 'carnivo-media', S3_ROOT_PATH: './carnivo' }, /S3_ROOT_PATH .* must not contain/);
  });

  it('uploadMediaOrigins (the CSP) refuses the same misconfiguration', () => {
    expect(() => uploadMediaOrigins({ UPLOAD_PROVIDER: 's3' })).toThrow(UploadConfigError);
  });
});

describe('uploadProviderConfig: how each variable reaches the provider', () => {
  it('an S3-compatible service: endpoint (trailing slash dropped), path style, keys, public URL, root path, ACL', () => {
    expect(
      s3Options({
        UPLOAD_PROVIDER: 's3',
        S3_BUCKET: ' carnivo-media ',
        S3_REGION: 'auto',
        S3_ENDPOINT: 'https://minio.example.com:9000/',
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: ' minio-key ',
        S3_SECRET_ACCESS_KEY: 'minio-secret',
        S3_PUBLIC_URL: 'https://media.carnivo.example/pictures/',
        S3_ROOT_PATH: '/carnivo/uploads/',
        S3_ACL: 'public-read',
      }),
    ).toEqual({
      baseUrl: 'https://media.carnivo.example/pictures',
      rootPath: 'carnivo/uploads',
      s3Options: {
        region: 'auto',
        endpoint: 'https://minio.example.com:9000',
        forcePathStyle: true,
        credentials: { accessKeyId: 'minio-key', secretAccessKey: 'minio-secret' },
        params: { Bucket: 'carnivo-media', ACL: 'public-read' },
      },
    });
  });

  it('S3_FORCE_PATH_STYLE accepts true/1 and false/0 in any case', () => {
    const style = (value: string) => s3Options({ S3_BUCKET: 'b-1', S3_FORCE_PATH_STYLE: value }).s3Options.forcePathStyle;
    expect(['true', 'TRUE', '1'].map(style)).toEqual([true, true, true]);
    expect(['false', 'False', '0', ''].map(style)).toEqual([false, false, false, false]);
  });

  it('S3_ROOT_PATH of only slashes means no prefix', () => {
    expect(s3Options({ S3_BUCKET: 'carnivo-media', S3_ROOT_PATH: '/' })).not.toHaveProperty('rootPath');
  });

  it('each canned ACL that keeps the pictures readable is passed on', () => {
    for (const acl of ['public-read', 'public-read-write', 'bucket-owner-full-control', 'bucket-owner-read']) {
      expect(s3Options({ S3_BUCKET: 'carnivo-media', S3_ACL: acl }).s3Options.params.ACL).toBe(acl);
    }
  });

  it('the public URL defaults to the bucket: AWS virtual-hosted, or the endpoint', () => {
    expect(s3PublicBaseUrl({ S3_BUCKET: 'carnivo-media', S3_REGION: 'eu-west-3' })).toBe(
      'https://carnivo-media.s3.eu-west-3.amazonaws.com',
    );
    expect(s3PublicBaseUrl({ S3_BUCKET: 'carnivo-media', S3_ENDPOINT: 'http://127.0.0.1:9000' })).toBe(
      'http://127.0.0.1:9000/carnivo-media',
    );
    expect(s3PublicBaseUrl({ S3_BUCKET: 'carnivo-media', S3_ENDPOINT: 'https://minio.example.com', S3_FORCE_PATH_STYLE: 'true' })).toBe(
      'https://minio.example.com/carnivo-media',
    );
    expect(s3PublicBaseUrl({ S3_BUCKET: 'carnivo-media', S3_ENDPOINT: 'https://acc.r2.cloudflarestorage.com' })).toBe(
      'https://carnivo-media.acc.r2.cloudflarestorage.com',
    );
  });

  it('uploadMediaOrigins: none on local disk, else the origin of the public URL (for the CSP img-src)', () => {
    expect(uploadMediaOrigins({})).toEqual([]);
    expect(uploadMediaOrigins({ UPLOAD_PROVIDER: 'local', S3_BUCKET: 'carnivo-media' })).toEqual([]);
    expect(uploadMediaOrigins({ S3_BUCKET: 'carnivo-media', S3_PUBLIC_URL: 'https://media.carnivo.example/pictures/' })).toEqual([
      'https://media.carnivo.example',
    ]);
    expect(uploadMediaOrigins({ S3_BUCKET: 'carnivo-media', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: 'true' })).toEqual([
      'http://127.0.0.1:9000',
    ]);
    expect(uploadMediaOrigins({ S3_BUCKET: 'carnivo-media', S3_REGION: 'eu-west-3' })).toEqual([
      'https://carnivo-media.s3.eu-west-3.amazonaws.com',
    ]);
  });
});

/** The URL the AWS SDK sends a PutObject of `key` to, for these provider options (nothing is sent). */
async function sdkObjectUrl(options: S3ProviderOptions, key: string): Promise<string> {
  const { params, ...clientOptions } = options.s3Options;
  const client = new S3Client({ ...clientOptions, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  let url = '';
  client.middlewareStack.add(
    () => async (args) => {
      const req = args.request as { protocol: string; hostname: string; port?: number; path: string };
      url = `${req.protocol}//${req.hostname}${req.port ? `:${req.port}` : ''}${req.path}`;
      return { output: { $metadata: {} }, response: {} } as never;
    },
    { step: 'finalizeRequest', priority: 'low' },
  );
  await client.send(new PutObjectCommand({ Bucket: params.Bucket, Key: key, Body: 'x' }));
  client.destroy();
  return url;
}

describe('the default public URL is where the AWS SDK puts the objects', () => {
  const cases: [string, Env][] = [
    ['AWS, us-east-1', { S3_BUCKET: 'carnivo-media' }],
    ['AWS, eu-west-3', { S3_BUCKET: 'carnivo-media', S3_REGION: 'eu-west-3' }],
    ['AWS, China', { S3_BUCKET: 'carnivo-media', S3_REGION: 'cn-north-1' }],
    ['AWS, path style forced', { S3_BUCKET: 'carnivo-media', S3_REGION: 'eu-west-3', S3_FORCE_PATH_STYLE: 'true' }],
    ['AWS, bucket with dots', { S3_BUCKET: 'media.carnivo.example', S3_REGION: 'eu-west-3' }],
    ['AWS, legacy bucket with capitals and underscores', { S3_BUCKET: 'Carnivo_Media', S3_REGION: 'us-east-1' }],
    ['MinIO on an IP address, path style not set', { S3_BUCKET: 'carnivo-media', S3_ENDPOINT: 'http://10.0.0.7:9000' }],
    ['MinIO, path style', { S3_BUCKET: 'carnivo-media', S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true' }],
    [
      'MinIO behind a path, path style',
      { S3_BUCKET: 'carnivo-media', S3_ENDPOINT: 'https://storage.example.com/s3/', S3_FORCE_PATH_STYLE: 'true' },
    ],
    [
      'S3-compatible, virtual-hosted',
      { S3_BUCKET: 'carnivo-media', S3_ENDPOINT: 'https://fra1.digitaloceanspaces.com', S3_REGION: 'fra1' },
    ],
    ['Cloudflare R2', { S3_BUCKET: 'carnivo-media', S3_REGION: 'auto', S3_ENDPOINT: 'https://0123abcd.r2.cloudflarestorage.com' }],
    ['S3-compatible, bucket with dots', { S3_BUCKET: 'media.carnivo', S3_ENDPOINT: 'https://minio.example.com' }],
  ];
  it.each(cases)('%s', async (_name, env) => {
    const options = s3Options(env);
    expect(options.baseUrl).toBe(s3PublicBaseUrl(env));
    expect(await sdkObjectUrl(options, 'carnivo/picture_1a2b.png')).toBe(`${options.baseUrl}/carnivo/picture_1a2b.png`);
  });
});

describe('@strapi/provider-upload-aws-s3 with this configuration, against the S3 double', () => {
  let double: S3Double;
  const env = (extra: Env = {}): Env => ({
    S3_BUCKET: 'carnivo-unit',
    S3_ENDPOINT: double.url,
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: 'unit-key',
    S3_SECRET_ACCESS_KEY: 'unit-secret',
    ...extra,
  });

  beforeAll(async () => {
    double = await startS3Double({ bucket: 'carnivo-unit' });
  });
  afterAll(async () => {
    await double?.close();
  });

  it('puts the file under S3_ROOT_PATH with the keys, sends no ACL, links it under S3_PUBLIC_URL, and deletes it', async () => {
    const provider = s3Provider.init(s3Options(env({ S3_ROOT_PATH: '/carnivo/', S3_PUBLIC_URL: `${double.publicUrl}/` })));
    expect(provider.isPrivate()).toBe(false);
    const bytes = crypto.randomBytes(2048);
    const file: ProviderFile = { hash: 'picture_1a2b', ext: '.png', mime: 'image/png', buffer: bytes };
    await provider.upload(file);

    const object = double.objects.get('carnivo/picture_1a2b.png');
    expect(object).toMatchObject({ contentType: 'image/png', acl: undefined, accessKeyId: 'unit-key' });
    expect(object!.body.equals(bytes)).toBe(true);
    expect(file.url).toBe(`${double.publicUrl}/carnivo/picture_1a2b.png`);
    const served = await fetch(file.url!);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);

    await provider.delete(file);
    expect(double.objects.has('carnivo/picture_1a2b.png')).toBe(false);
  });

  it('sends S3_ACL when set, and links to the bucket itself without S3_PUBLIC_URL', async () => {
    const provider = s3Provider.init(s3Options(env({ S3_ACL: 'public-read' })));
    const file: ProviderFile = { hash: 'other_3c4d', ext: '.jpg', mime: 'image/jpeg', buffer: Buffer.from('jpeg bytes') };
    await provider.upload(file);
    expect(double.objects.get('other_3c4d.jpg')?.acl).toBe('public-read');
    expect(file.url).toBe(`${double.url}/carnivo-unit/other_3c4d.jpg`);
    await provider.delete(file);
  });
});

// --- Strapi on S3 --------------------------------------------------------------------------------

const USERS = 'plugin::users-permissions.user';
const FILES = 'plugin::upload.file';
const BUCKET = 'carnivo-test';
const ROOT_PATH = 'carnivo/pictures';

interface MediaFile {
  id: number;
  url: string;
  mime: string;
  provider: string;
  formats: Record<string, { url: string }> | null;
}

describe('Strapi with uploads on S3: the profile-picture rules', () => {
  let double: S3Double;
  let app: TestApp;
  let alice: Member;
  let bob: Member;
  let publicUrl: string;

  const urlsOf = (file: MediaFile) => [file.url, ...Object.values(file.formats ?? {}).map((format) => format.url)];
  /** Object keys behind a file record: its URLs under S3_PUBLIC_URL, minus the base. */
  const keysOf = (file: MediaFile) =>
    urlsOf(file).map((url) => {
      expect(url.startsWith(`${publicUrl}/${ROOT_PATH}/`), url).toBe(true);
      return url.slice(publicUrl.length + 1);
    });
  const puts = () => double.requests.filter((entry) => entry.operation === 'PutObject').length;

  async function upload(member: Member, bytes: Buffer, name: string, type: string, refId = member.id, query = '') {
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(bytes)], { type }), name);
    form.append('refId', String(refId));
    form.append('ref', USERS);
    form.append('field', 'profile_picture');
    const res = await fetch(`${app.baseUrl}/api/upload${query}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${member.jwt}` },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as MediaFile[] & ApiError };
  }

  const pictureOf = async (member: Member): Promise<MediaFile | null> => {
    const res = await request<{ profile_picture: MediaFile | null }>(app.baseUrl, 'GET', '/api/users/me?populate=*', { token: member.jwt });
    expect(res.status).toBe(200);
    return res.body.profile_picture;
  };

  /** A 400 × 300 photo (so Strapi also stores a thumbnail) carrying an EXIF marker. */
  const photo = (format: 'jpeg' | 'png', background: string) =>
    sharp({ create: { width: 400, height: 300, channels: 3, background } })
      [format]()
      .withExif({ IFD0: { Copyright: 'CARNIVO-EXIF-MARKER' } })
      .toBuffer();

  beforeAll(async () => {
    double = await startS3Double({ bucket: BUCKET });
    publicUrl = double.publicUrl;
    app = await boot({
      outbox: true,
      env: {
        UPLOAD_PROVIDER: 's3',
        S3_BUCKET: BUCKET,
        S3_REGION: 'eu-west-3',
        S3_ENDPOINT: double.url,
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: 'test-access-key',
        S3_SECRET_ACCESS_KEY: 'test-secret-key',
        S3_PUBLIC_URL: publicUrl,
        S3_ROOT_PATH: ROOT_PATH,
      },
    });
    alice = await app.register(`alice${crypto.randomBytes(3).toString('hex')}`);
    bob = await app.register(`bob${crypto.randomBytes(3).toString('hex')}`);
  });

  afterAll(async () => {
    await app?.stop();
    await double?.close();
  });

  let first: MediaFile;

  it('a member’s picture lands in the bucket (re-encoded, every size), linked under S3_PUBLIC_URL, not on disk', async () => {
    const before = puts();
    const res = await upload(alice, await photo('jpeg', '#b22222'), 'me.jpg', 'image/jpeg');
    expect(res.status).toBe(201);
    first = res.body[0];
    expect(first.mime).toBe('image/jpeg');
    expect(Object.keys(first.formats ?? {})).toContain('thumbnail');

    const row = await app.strapi.db.query(FILES).findOne({ where: { id: first.id } });
    expect(row.provider).toBe('aws-s3');
    expect(await pictureOf(alice)).toMatchObject({ id: first.id, url: first.url });

    const keys = keysOf(first);
    expect(puts() - before).toBe(keys.length);
    for (const key of keys) {
      const object = double.objects.get(key);
      expect(object, key).toBeDefined();
      expect(object).toMatchObject({ contentType: 'image/jpeg', acl: undefined, accessKeyId: 'test-access-key' });
      // The content checks ran before the upload: what is stored is the re-encoded picture.
      expect((await sharp(object!.body).metadata()).exif).toBeUndefined();
      expect(object!.body.includes('CARNIVO-EXIF-MARKER')).toBe(false);
      // Nothing written to this machine's disk.
      expect(fs.existsSync(path.join(app.strapi.dirs.static.public, 'uploads', path.basename(key)))).toBe(false);
    }

    // The stored URL serves the picture (through the double's "CDN").
    const served = await fetch(first.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await served.arrayBuffer()).equals(double.objects.get(keys[0])!.body)).toBe(true);
  });

  it('a second picture removes the first one’s objects from the bucket', async () => {
    const firstKeys = keysOf(first);
    const res = await upload(alice, await photo('png', '#123456'), 'second.png', 'image/png');
    expect(res.status).toBe(201);
    const second = res.body[0];
    expect((await pictureOf(alice))?.id).toBe(second.id);

    for (const key of firstKeys) {
      expect(double.objects.has(key), key).toBe(false);
      expect(double.requests).toContainEqual(expect.objectContaining({ operation: 'DeleteObject', key }));
    }
    expect(await app.strapi.db.query(FILES).findOne({ where: { id: first.id } })).toBeNull();
    for (const key of keysOf(second)) expect(double.objects.get(key)?.contentType, key).toBe('image/png');
    first = second;
  });

  it('refuses what is not an image before anything reaches the bucket', async () => {
    const before = { puts: puts(), objects: [...double.objects.keys()].sort(), picture: await pictureOf(alice) };
    const notAnImage = 'Only PNG, JPEG, GIF or WebP images can be uploaded';
    for (const [bytes, name, type] of [
      [Buffer.from('this is not an image at all\n'), 'forged.png', 'image/png'],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'x.svg', 'image/svg+xml'],
      [
        Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('<script>alert(1)</script>'.repeat(20))]),
        'corrupt.png',
        'image/png',
      ],
    ] as const) {
      const res = await upload(alice, bytes, name, type);
      expect(res.status, name).toBe(400);
      expect(res.body.error.message).toBe(notAnImage);
    }
    expect(puts()).toBe(before.puts);
    expect([...double.objects.keys()].sort()).toEqual(before.objects);
    expect(await pictureOf(alice)).toEqual(before.picture);
  });

  it('another member can neither attach an upload to someone else nor replace or delete their picture', async () => {
    const before = { puts: puts(), objects: [...double.objects.keys()].sort(), picture: await pictureOf(alice) };
    const png = await photo('png', '#000000');

    const onto = await upload(bob, png, 'x.png', 'image/png', alice.id);
    expect(onto.status).toBe(403);
    expect(onto.body.error.message).toBe('You can only change your own profile picture');

    const replace = await upload(bob, png, 'x.png', 'image/png', bob.id, `?id=${first.id}`);
    expect(replace.status).toBe(400);
    expect(replace.body.error.message).toBe('Existing files cannot be replaced or edited');

    expect((await request(app.baseUrl, 'DELETE', `/api/upload/files/${first.id}`, { token: bob.jwt })).status).toBe(403);

    expect(puts()).toBe(before.puts);
    expect([...double.objects.keys()].sort()).toEqual(before.objects);
    expect(await pictureOf(alice)).toEqual(before.picture);
    expect(await pictureOf(bob)).toBeNull();
  });

  it('deleting the account deletes the member’s objects, and only theirs', async () => {
    const bobRes = await upload(bob, await photo('png', '#00aa00'), 'bob.png', 'image/png');
    expect(bobRes.status).toBe(201);
    const bobKeys = keysOf(bobRes.body[0]);
    const aliceKeys = keysOf((await pictureOf(alice))!);
    for (const key of [...aliceKeys, ...bobKeys]) expect(double.objects.has(key), key).toBe(true);

    const res = await request<{ ok: boolean }>(app.baseUrl, 'DELETE', '/api/users-permissions/users/delete-account', { token: alice.jwt });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });

    for (const key of aliceKeys) expect(double.objects.has(key), key).toBe(false);
    for (const key of bobKeys) expect(double.objects.has(key), key).toBe(true);
    expect(await app.strapi.db.query(FILES).count({ where: { id: first.id } })).toBe(0);
    expect(await app.strapi.db.query(USERS).count({ where: { id: alice.id } })).toBe(0);
  });

  it('five pictures at once leave one set of objects; deleting the account then deletes every object the member ever uploaded', async () => {
    const carol = await app.register(`carol${crypto.randomBytes(3).toString('hex')}`);
    const uploaded: MediaFile[] = [];
    const first = await upload(carol, await photo('png', '#101010'), 'one.png', 'image/png');
    expect(first.status).toBe(201);
    uploaded.push(first.body[0]);

    // The bucket refuses the removal of the replaced picture once: its objects stay behind, unlinked.
    const provider = app.strapi.plugin('upload').provider as { delete(file: unknown): Promise<unknown> };
    const originalDelete = provider.delete;
    let failures = 1;
    provider.delete = async function (this: unknown, file: unknown) {
      if (failures-- > 0) throw new Error('S3 unavailable');
      return originalDelete.call(this, file);
    };
    const logger = app.strapi.log as unknown as { silent: boolean };
    logger.silent = true; // the failed removal is logged
    try {
      const second = await upload(carol, await photo('png', '#202020'), 'two.png', 'image/png');
      expect(second.status).toBe(201);
      uploaded.push(second.body[0]);
    } finally {
      provider.delete = originalDelete;
      logger.silent = false;
    }
    for (const key of keysOf(uploaded[0])) expect(double.objects.has(key), key).toBe(true);

    const colours = ['#300000', '#003000', '#000030', '#303000', '#003030'];
    const atOnce = await Promise.all(
      colours.map(async (colour, n) => upload(carol, await photo('png', colour), `at-once-${n}.png`, 'image/png')),
    );
    for (const res of atOnce) expect(res.status).toBe(201);
    uploaded.push(...atOnce.map((res) => res.body[0]));
    const current = (await pictureOf(carol))!;
    // Of the five at once, one picture's objects remain (plus the one whose removal failed).
    for (const file of atOnce.map((res) => res.body[0])) {
      for (const key of keysOf(file)) expect(double.objects.has(key), key).toBe(file.id === current.id);
    }

    const res = await request<{ ok: boolean }>(app.baseUrl, 'DELETE', '/api/users-permissions/users/delete-account', { token: carol.jwt });
    expect(res.status).toBe(200);
    for (const file of uploaded) {
      for (const key of keysOf(file)) expect(double.objects.has(key), key).toBe(false);
      expect(await app.strapi.db.query(FILES).count({ where: { id: file.id } }), String(file.id)).toBe(0);
    }
    // Bob's picture stays.
    const bobs = (await pictureOf(bob))!;
    for (const key of keysOf(bobs)) expect(double.objects.has(key), key).toBe(true);
  });

  it('the Content-Security-Policy lets the browser load pictures from the S3 public origin', async () => {
    const res = await fetch(`${app.baseUrl}/api/health/live`);
    const directives = Object.fromEntries(
      (res.headers.get('content-security-policy') ?? '')
        .split(';')
        .map((directive) => directive.trim().split(/\s+/))
        .map(([name, ...sources]) => [name, sources]),
    ) as Record<string, string[]>;
    const origin = new URL(publicUrl).origin;
    expect(directives['img-src']).toContain(origin);
    expect(directives['media-src']).toContain(origin);
    expect(directives['img-src']).toContain("'self'");
    expect(directives['script-src']).not.toContain(origin);
  });
});
