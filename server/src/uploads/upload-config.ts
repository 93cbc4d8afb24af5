/**
 * Where uploads (members' profile pictures, the admin's media library) are stored, from the
 * environment (see docs/uploads.md).
 *
 * - Local disk (`server/public/uploads`, served under `/uploads`) by default.
 * - S3-compatible object storage through `@strapi/provider-upload-aws-s3` when UPLOAD_PROVIDER=s3,
 *   or when UPLOAD_PROVIDER is unset and S3_BUCKET is set. Every instance then reads and writes
 *   the same bucket, so instances on different machines share the pictures.
 *
 * Misconfiguration fails at start-up (UploadConfigError) rather than silently writing to one
 * machine's disk: UPLOAD_PROVIDER=s3 without S3_BUCKET, S3_* settings without S3_BUCKET, half a
 * key pair, a URL that is not http(s); also an invalid bucket name, region, S3_FORCE_PATH_STYLE,
 * S3_ROOT_PATH or S3_ACL.
 *
 * Everything here reads a plain env record, so it is unit-tested without booting Strapi
 * (server/tests/uploads/upload-s3.test.ts); config/plugins.ts passes process.env.
 */

export type Env = Record<string, string | undefined>;

export class UploadConfigError extends Error {
  constructor(message: string) {
    super(`Upload configuration: ${message}`);
    this.name = 'UploadConfigError';
  }
}

/** The Strapi upload provider name of S3 (resolved to @strapi/provider-upload-aws-s3). */
export const S3_PROVIDER = 'aws-s3';

/** Every S3_* variable read here; any of them without S3_BUCKET is a configuration mistake. */
export const S3_ENV_KEYS = [
  'S3_BUCKET',
  'S3_REGION',
  'S3_ENDPOINT',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_PUBLIC_URL',
  'S3_FORCE_PATH_STYLE',
  'S3_ROOT_PATH',
  'S3_ACL',
] as const;

/** Canned ACLs an upload may carry; "private" and friends are refused (the site links pictures directly). */
const PUBLIC_ACLS = ['public-read', 'public-read-write', 'bucket-owner-full-control', 'bucket-owner-read'] as const;
type PublicAcl = (typeof PUBLIC_ACLS)[number];

export interface S3ProviderOptions {
  /** Base of every file URL (S3_PUBLIC_URL, or the bucket's own URL). */
  baseUrl: string;
  /** Key prefix inside the bucket (S3_ROOT_PATH), no leading or trailing slash. */
  rootPath?: string;
  s3Options: {
    region: string;
    endpoint?: string;
    forcePathStyle: boolean;
    credentials?: { accessKeyId: string; secretAccessKey: string };
    params: { Bucket: string; ACL: PublicAcl | undefined };
  };
}

export type UploadProviderConfig = { provider: 'local' } | { provider: typeof S3_PROVIDER; providerOptions: S3ProviderOptions };

const value = (env: Env, key: string): string => (env[key] ?? '').trim();

function httpUrl(env: Env, key: string): URL | undefined {
  const raw = value(env, key);
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UploadConfigError(`${key} "${raw}" is not a URL such as https://media.carnivo.example`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UploadConfigError(`${key} "${raw}" must be an http:// or https:// URL`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new UploadConfigError(`${key} "${raw}" must not carry a query, a fragment or credentials`);
  }
  return url;
}

function bool(env: Env, key: string, fallback: boolean): boolean {
  const raw = value(env, key).toLowerCase();
  if (!raw) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new UploadConfigError(`${key} must be true or false, not "${raw}"`);
}

const withoutTrailingSlash = (url: URL) => url.toString().replace(/\/+$/, '');

/** S3_REGION or us-east-1; the AWS SDK refuses (at the first upload) a region that is not one DNS label. */
function s3Region(env: Env): string {
  const region = value(env, 'S3_REGION') || 'us-east-1';
  if (!/^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/.test(region)) {
    throw new UploadConfigError(`S3_REGION "${region}" is not a region such as eu-west-3 (or "auto" for Cloudflare R2)`);
  }
  return region;
}

const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)){3}$/;

/**
 * Whether the AWS SDK addresses this bucket virtual-hosted style (`<bucket>.<host>`), as its
 * isVirtualHostableS3Bucket: one DNS label of 3-63 lowercase letters, digits and hyphens that is
 * not an IP address. Others (dots, capitals, underscores) go path style, as do IP-address endpoints.
 */
const virtualHostable = (bucket: string) => /^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/.test(bucket) && !IPV4.test(bucket);
const isIpHost = (hostname: string) => IPV4.test(hostname) || hostname.startsWith('[');

/** 'local' or 's3', after validating UPLOAD_PROVIDER and the S3_* variables it implies. */
export function uploadProviderName(env: Env = process.env): 'local' | 's3' {
  const requested = value(env, 'UPLOAD_PROVIDER').toLowerCase();
  const bucket = value(env, 'S3_BUCKET');
  if (requested === 'local') return 'local';
  if (requested === 's3') {
    if (!bucket) throw new UploadConfigError('UPLOAD_PROVIDER=s3 needs S3_BUCKET (the bucket that stores the uploads)');
    return 's3';
  }
  if (requested) throw new UploadConfigError(`UPLOAD_PROVIDER must be "local" or "s3", not "${requested}"`);
  if (bucket) return 's3';
  const stray = S3_ENV_KEYS.filter((key) => value(env, key));
  if (stray.length > 0) {
    throw new UploadConfigError(
      `${stray.join(', ')} ${stray.length === 1 ? 'is' : 'are'} set but S3_BUCKET is not: set S3_BUCKET to store uploads in S3, or UPLOAD_PROVIDER=local to keep them on this machine's disk`,
    );
  }
  return 'local';
}

/**
 * The upload plugin's `provider` and `providerOptions` for this environment. Throws
 * UploadConfigError (so Strapi does not start) when the S3 settings are incomplete or invalid.
 */
export function uploadProviderConfig(env: Env = process.env): UploadProviderConfig {
  if (uploadProviderName(env) === 'local') return { provider: 'local' };

  const bucket = value(env, 'S3_BUCKET');
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/.test(bucket)) {
    throw new UploadConfigError(
      `S3_BUCKET "${bucket}" is not a bucket name (letters, digits, dots, hyphens; a key prefix goes into S3_ROOT_PATH)`,
    );
  }
  const region = s3Region(env);
  const endpoint = httpUrl(env, 'S3_ENDPOINT');
  const forcePathStyle = bool(env, 'S3_FORCE_PATH_STYLE', false);

  const accessKeyId = value(env, 'S3_ACCESS_KEY_ID');
  const secretAccessKey = value(env, 'S3_SECRET_ACCESS_KEY');
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new UploadConfigError(
      'set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (then the AWS SDK finds credentials itself, e.g. an instance role)',
    );
  }

  const acl = value(env, 'S3_ACL');
  if (acl && !(PUBLIC_ACLS as readonly string[]).includes(acl)) {
    throw new UploadConfigError(
      `S3_ACL must be empty (no ACL sent: the bucket policy or CDN makes the files public) or one of ${PUBLIC_ACLS.join(', ')}, not "${acl}"; the site links the pictures directly, so they must be publicly readable`,
    );
  }

  const rootPath = value(env, 'S3_ROOT_PATH').replace(/^\/+|\/+$/g, '');
  if (rootPath.split('/').some((segment) => segment === '..' || segment === '.')) {
    throw new UploadConfigError(`S3_ROOT_PATH "${rootPath}" must not contain . or .. segments`);
  }

  return {
    provider: S3_PROVIDER,
    providerOptions: {
      baseUrl: s3PublicBaseUrl(env),
      ...(rootPath ? { rootPath } : {}),
      s3Options: {
        region,
        ...(endpoint ? { endpoint: withoutTrailingSlash(endpoint) } : {}),
        forcePathStyle,
        ...(accessKeyId ? { credentials: { accessKeyId, secretAccessKey } } : {}),
        // ACL present (even undefined) so the provider does not add its default public-read,
        // which buckets with ACLs disabled (the AWS default since 2023) and R2 refuse.
        params: { Bucket: bucket, ACL: (acl || undefined) as PublicAcl | undefined },
      },
    },
  };
}

/**
 * Base URL of the stored files: S3_PUBLIC_URL (a CDN or custom domain) when set, otherwise the
 * bucket's own URL, where the AWS SDK puts the objects: `<scheme>://<bucket>.<S3_ENDPOINT host>`
 * (virtual-hosted) or `<S3_ENDPOINT>/<bucket>` (path style: S3_FORCE_PATH_STYLE=true, an IP-address
 * endpoint, or a bucket name that is not one lowercase DNS label); on AWS (no S3_ENDPOINT)
 * `https://<bucket>.s3.<region>.amazonaws.com` or `https://s3.<region>.amazonaws.com/<bucket>`.
 */
export function s3PublicBaseUrl(env: Env = process.env): string {
  const publicUrl = httpUrl(env, 'S3_PUBLIC_URL');
  if (publicUrl) return withoutTrailingSlash(publicUrl);
  const bucket = value(env, 'S3_BUCKET');
  const region = s3Region(env);
  const endpoint = httpUrl(env, 'S3_ENDPOINT');
  const pathStyle = bool(env, 'S3_FORCE_PATH_STYLE', false) || !virtualHostable(bucket);
  if (!endpoint) {
    const host = `s3.${region}.amazonaws.com${region.startsWith('cn-') ? '.cn' : ''}`;
    return pathStyle ? `https://${host}/${bucket}` : `https://${bucket}.${host}`;
  }
  if (pathStyle || isIpHost(endpoint.hostname)) return `${withoutTrailingSlash(endpoint)}/${bucket}`;
  const virtualHost = new URL(endpoint.toString());
  virtualHost.hostname = `${bucket}.${endpoint.hostname}`;
  return withoutTrailingSlash(virtualHost);
}

/**
 * Origins the browser loads uploaded files from besides the site itself: the S3 public URL's
 * origin when uploads go to S3, none on local disk. For the Content-Security-Policy's img-src and
 * media-src (config/middlewares.ts).
 */
export function uploadMediaOrigins(env: Env = process.env): string[] {
  const config = uploadProviderConfig(env);
  if (config.provider === 'local') return [];
  return [new URL(config.providerOptions.baseUrl).origin];
}
