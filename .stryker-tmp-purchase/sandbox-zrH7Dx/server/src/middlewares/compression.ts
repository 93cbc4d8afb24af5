// @ts-nocheck
import { constants } from 'zlib';
import compress from 'koa-compress';

/**
 * Compresses text responses on the fly (HTML, API JSON, the admin panel's scripts ...): brotli when
 * the client takes it, else gzip, from 1 KB up. Brotli at quality 4 costs little CPU per request;
 * the SPA's built files come precompressed at max quality instead (scripts/precompress.ts,
 * src/middlewares/spa.ts), and a body that already has a Content-Encoding is left alone.
 * Only responses are touched: request bodies (Stripe's webhook signature) are read as sent.
 */

export const COMPRESSION_THRESHOLD_BYTES = 1024;

// Text that shrinks well. Images (uploads included), fonts (woff2 is compressed already), media
// and archives are not; neither is text/event-stream, which must not be buffered.
const COMPRESSIBLE = /^(?:text\/(?!event-stream$)[\w.+-]+|application\/(?:json|javascript|xml|[\w.-]+\+(?:json|xml))|image\/svg\+xml)$/i;

export const isCompressible = (type: string): boolean => COMPRESSIBLE.test(type);

export default () =>
  compress({
    filter: isCompressible,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    br: {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 4,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    },
    gzip: {},
    // Brotli and gzip only, as the precompressed files (zstd would start on Node 22.15+).
    deflate: false,
    zstd: false,
  });
