import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Import this FIRST in a test file (before ./strapi): it points TMPDIR at a fresh directory before
 * Strapi (and formidable, which reads os.tmpdir() once when loaded) is required, so every temp file
 * of an upload lands there and a test can prove none is left behind.
 */

/** The system temp directory, for what should not be counted (e.g. the SQLite file). */
export const ORIGINAL_TMPDIR = os.tmpdir();
export const REQUEST_TMPDIR = fs.mkdtempSync(path.join(ORIGINAL_TMPDIR, 'carnivo-request-tmp-'));
process.env.TMPDIR = REQUEST_TMPDIR;

/** Where formidable (strapi::body's multipart parser) writes uploaded files. */
export function formidableUploadDir(): string {
  const requireFromServer = createRequire(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'package.json'));
  const requireFromKoaBody = createRequire(requireFromServer.resolve('koa-body'));
  const formidable = requireFromKoaBody('formidable') as { defaultOptions?: { uploadDir?: string } };
  return formidable.defaultOptions?.uploadDir ?? '';
}

/** Files and directories left in REQUEST_TMPDIR. */
export const tempEntries = (): string[] => fs.readdirSync(REQUEST_TMPDIR);

/** Waits (up to timeoutMs) until REQUEST_TMPDIR is empty; returns what is left. Strapi removes a successful upload's temp file without waiting. */
export async function leftoverTempFiles(timeoutMs = 3_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = tempEntries();
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function removeRequestTmpdir(): void {
  fs.rmSync(REQUEST_TMPDIR, { recursive: true, force: true });
}
