// Vite plugin: after the client build, writes <file>.br and <file>.gz next to every compressible file
// in the output directory, so the server (server/src/middlewares/spa.ts) sends them without
// compressing on each request. Max quality: it runs once per build.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

export const PRECOMPRESSED_EXTENSIONS = ['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.xml', '.webmanifest'];
/** Smaller files gain too little (and the server does not compress below 1 KB either). */
export const PRECOMPRESS_MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    // .vite/manifest.json is for the server only, never served.
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

/** Both compressed copies are there and no older than the file: a later build into the same dir (the profile shell's) keeps them. */
async function compressedCopiesCurrent(file: string): Promise<boolean> {
  const [raw, ...copies] = await Promise.all([file, `${file}.br`, `${file}.gz`].map((name) => fs.stat(name).catch(() => null)));
  return Boolean(raw && copies.every((copy) => copy && copy.mtimeMs >= raw.mtimeMs));
}

/** Writes .br and .gz for each compressible file of dir lacking current ones; returns how many files were looked at. */
export async function precompressDir(dir: string): Promise<number> {
  const jobs: Promise<void>[] = [];
  for await (const file of filesUnder(dir)) {
    if (!PRECOMPRESSED_EXTENSIONS.includes(path.extname(file))) continue;
    jobs.push(
      (async () => {
        if (await compressedCopiesCurrent(file)) return;
        const raw = await fs.readFile(file);
        if (raw.length < PRECOMPRESS_MIN_BYTES) return;
        const [br, gz] = await Promise.all([
          brotli(raw, {
            params: {
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          }),
          gzipAsync(raw, { level: constants.Z_BEST_COMPRESSION }),
        ]);
        // Both are always smaller above 1 KB of text; the check keeps a pathological file plain.
        await Promise.all([
          br.length < raw.length ? fs.writeFile(`${file}.br`, br) : undefined,
          gz.length < raw.length ? fs.writeFile(`${file}.gz`, gz) : undefined,
        ]);
      })(),
    );
  }
  await Promise.all(jobs);
  return jobs.length;
}

export function precompress(): Plugin {
  let outDir = '';
  let skip = false;
  return {
    name: 'carnivo:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      // The SSR bundle (dist-ssr/) is loaded by the server, never sent to a browser.
      skip = Boolean(config.build.ssr);
    },
    // After everything is on disk, public/ files included.
    async closeBundle() {
      if (skip) return;
      await precompressDir(outDir);
    },
  };
}
