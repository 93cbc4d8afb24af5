import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny S3-compatible HTTP server for tests (docs/uploads.md): one bucket,
 * path-style addressing (`/<bucket>/<key>`, what the AWS SDK v3 sends with forcePathStyle or an
 * IP-address endpoint), and only PutObject, GetObject, HeadObject and DeleteObject.
 *
 * It keeps the objects in memory and records every request. It does not verify signatures, but
 * refuses unsigned API calls (403 AccessDenied), records the access key id of each signed one, and
 * checks the body against the signed x-amz-content-sha256 (400 on mismatch). Multipart uploads and
 * listing are answered 501 (the profile pictures, at most 5 MB, go up in one PutObject).
 *
 * `publicPath` (default `/cdn`) stands for a CDN in front of the bucket: anonymous GET
 * `<publicPath>/<key>` serves the object, so S3_PUBLIC_URL=`<url>/cdn` yields fetchable file URLs
 * that differ from the SDK's own path-style location.
 */

export interface StoredObject {
  key: string;
  body: Buffer;
  contentType: string | undefined;
  /** x-amz-acl of the PutObject, when one was sent. */
  acl: string | undefined;
  /** Access key id from the PutObject's Authorization header. */
  accessKeyId: string | undefined;
}

export interface RecordedRequest {
  method: string;
  /** 'PutObject' | 'GetObject' | 'HeadObject' | 'DeleteObject' | 'PublicGet' | 'Unsupported' */
  operation: string;
  key: string;
  status: number;
  accessKeyId: string | undefined;
}

export interface S3Double {
  /** http://127.0.0.1:<port>, the S3_ENDPOINT. */
  url: string;
  bucket: string;
  /** Base of the anonymous "CDN" URLs: `<url><publicPath>`. */
  publicUrl: string;
  /** Objects of the bucket by key. */
  objects: Map<string, StoredObject>;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const xmlError = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;

/** Body of a `Content-Encoding: aws-chunked` upload: `<hex size>[;chunk-signature=...]\r\n<data>\r\n` ... `0\r\n` + trailers. */
function decodeAwsChunked(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', offset);
    if (lineEnd < 0) throw new Error('aws-chunked: no chunk header');
    const size = parseInt(raw.subarray(offset, lineEnd).toString('latin1').split(';')[0], 16);
    if (!Number.isFinite(size)) throw new Error('aws-chunked: bad chunk size');
    if (size === 0) return Buffer.concat(parts);
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
}

export async function startS3Double(options: { bucket: string; publicPath?: string }): Promise<S3Double> {
  const { bucket } = options;
  const publicPath = (options.publicPath ?? '/cdn').replace(/\/+$/, '');
  const objects = new Map<string, StoredObject>();
  const requests: RecordedRequest[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://s3.invalid');
      const method = req.method ?? 'GET';
      const accessKeyId = /Credential=([^/,\s]+)\//.exec(req.headers.authorization ?? '')?.[1];
      const record = (operation: string, key: string, status: number) => requests.push({ method, operation, key, status, accessKeyId });
      const send = (status: number, headers: Record<string, string>, body?: Buffer | string) => {
        res.writeHead(status, headers);
        res.end(method === 'HEAD' ? undefined : body);
      };
      const sendError = (operation: string, key: string, status: number, code: string, message: string) => {
        record(operation, key, status);
        send(status, { 'Content-Type': 'application/xml' }, xmlError(code, message));
      };
      const serveObject = (operation: string, key: string) => {
        const object = objects.get(key);
        if (!object) return sendError(operation, key, 404, 'NoSuchKey', 'The specified key does not exist.');
        record(operation, key, 200);
        send(
          200,
          {
            'Content-Type': object.contentType ?? 'application/octet-stream',
            'Content-Length': String(object.body.length),
            ETag: `"${crypto.createHash('md5').update(object.body).digest('hex')}"`,
          },
          object.body,
        );
      };

      // The "CDN": anonymous reads of the bucket's objects.
      if (publicPath && url.pathname.startsWith(`${publicPath}/`)) {
        const key = decodeURIComponent(url.pathname.slice(publicPath.length + 1));
        if (method !== 'GET' && method !== 'HEAD') return sendError('PublicGet', key, 405, 'MethodNotAllowed', 'Read only.');
        return serveObject('PublicGet', key);
      }

      // Path style: /<bucket>/<key>; every segment percent-encoded by the SDK.
      const [, pathBucket = '', ...keySegments] = url.pathname.split('/');
      const key = keySegments.map((segment) => decodeURIComponent(segment)).join('/');
      if (decodeURIComponent(pathBucket) !== bucket)
        return sendError('Unsupported', key, 404, 'NoSuchBucket', 'The specified bucket does not exist.');
      if (!accessKeyId) return sendError('Unsupported', key, 403, 'AccessDenied', 'Anonymous requests are not accepted.');
      if (!key || url.searchParams.has('uploads') || url.searchParams.has('uploadId') || url.searchParams.has('list-type')) {
        return sendError('Unsupported', key, 501, 'NotImplemented', 'Only PutObject, GetObject, HeadObject and DeleteObject.');
      }

      if (method === 'PUT') {
        const raw = Buffer.concat(chunks);
        const declared = String(req.headers['x-amz-content-sha256'] ?? '');
        const chunked = /aws-chunked/.test(String(req.headers['content-encoding'] ?? '')) || declared.startsWith('STREAMING-');
        let body: Buffer;
        try {
          body = chunked ? decodeAwsChunked(raw) : raw;
        } catch (error) {
          return sendError('PutObject', key, 400, 'IncompleteBody', String(error));
        }
        if (/^[0-9a-f]{64}$/.test(declared) && crypto.createHash('sha256').update(body).digest('hex') !== declared) {
          return sendError(
            'PutObject',
            key,
            400,
            'XAmzContentSHA256Mismatch',
            'The provided x-amz-content-sha256 header does not match what was computed.',
          );
        }
        const contentType = req.headers['content-type'];
        const acl = req.headers['x-amz-acl'];
        objects.set(key, { key, body, contentType, acl: typeof acl === 'string' ? acl : undefined, accessKeyId });
        record('PutObject', key, 200);
        return send(200, { ETag: `"${crypto.createHash('md5').update(body).digest('hex')}"`, 'Content-Length': '0' });
      }
      if (method === 'GET' || method === 'HEAD') return serveObject(method === 'GET' ? 'GetObject' : 'HeadObject', key);
      if (method === 'DELETE') {
        // S3 answers 204 whether or not the key existed.
        objects.delete(key);
        record('DeleteObject', key, 204);
        return send(204, {});
      }
      return sendError('Unsupported', key, 405, 'MethodNotAllowed', `${method} is not supported here.`);
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    bucket,
    publicUrl: `${url}${publicPath}`,
    objects,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
