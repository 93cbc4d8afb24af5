import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, type WriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const serverDir = path.join(repoRoot, 'server');
const strapiBin = path.join(serverDir, 'node_modules', '@strapi', 'strapi', 'bin', 'strapi.js');
const BOOT_TIMEOUT_MS = 90_000;
const POLL_INTERVAL_MS = 500;
const STOP_TIMEOUT_MS = 10_000;

export type E2eServer = {
  /** e.g. http://127.0.0.1:41234: the built SPA and the API. */
  baseUrl: string;
  /** Where this server writes its e-mails, one .eml file each. */
  outboxDir: string;
  /** Stops the server and removes its temp directory (DB, outbox, log). */
  stop: () => Promise<void>;
};

export type E2eServerOptions = {
  /** A port chosen by the caller (e.g. when a double must know the origin first); a free one otherwise. */
  port?: number;
};

function assertBuilt(): void {
  const missing = [path.join(repoRoot, 'dist', 'index.html'), path.join(serverDir, 'dist')].filter((p) => !existsSync(p));
  if (missing.length > 0) {
    throw new Error(`e2e: the app is not built (missing ${missing.join(', ')}); run npm run build first.`);
  }
  if (!existsSync(strapiBin)) {
    throw new Error(`e2e: Strapi is not installed (missing ${strapiBin}); run npm install first.`);
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      if (address === null || typeof address === 'string') {
        probe.close();
        reject(new Error('e2e: could not determine a free port'));
        return;
      }
      probe.close(() => resolve(address.port));
    });
  });
}

export const secret = () => randomBytes(16).toString('base64');

function logTail(logFile: string, lines = 60): string {
  try {
    return readFileSync(logFile, 'utf8').split(/\r?\n/).slice(-lines).join('\n');
  } catch {
    return '(no log written)';
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Probe = { ok: boolean; seen: string };

async function probe(url: string, check: (response: Response, body: string) => boolean): Promise<Probe> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    const body = await response.text();
    const seen = `HTTP ${response.status} ${response.headers.get('content-type') ?? ''} ${body.slice(0, 200).replace(/\s+/g, ' ')}`;
    return { ok: check(response, body), seen };
  } catch (error) {
    return {
      ok: false,
      seen: `no answer (${error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)})`,
    };
  }
}

async function waitUntilReady(baseUrl: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + BOOT_TIMEOUT_MS;
  let api: Probe = { ok: false, seen: 'not asked yet' };
  let home: Probe = { ok: false, seen: 'not asked yet' };
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `e2e: the server exited during start-up (code ${child.exitCode}, signal ${child.signalCode}). Log tail (${logFile}):\n${logTail(logFile)}`,
      );
    }
    if (!api.ok) api = await probe(`${baseUrl}/api/ingredients`, (r) => r.status === 200);
    if (api.ok) {
      home = await probe(
        `${baseUrl}/`,
        (r, body) => r.status === 200 && (r.headers.get('content-type') ?? '').includes('text/html') && body.includes('<div id="root"'),
      );
      if (home.ok) return;
    }
    await delay(POLL_INTERVAL_MS);
  }
  throw new Error(
    `e2e: the server did not become ready within ${BOOT_TIMEOUT_MS / 1000} s.\n` +
      `  GET /api/ingredients: ${api.seen}\n  GET /: ${home.seen}\n` +
      `Log tail (${logFile}):\n${logTail(logFile, 30)}`,
  );
}

/** Ends the server and everything it started (it runs as its own process group). */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // The group is already gone.
    }
  };
  signalGroup('SIGTERM');
  const stopped = await Promise.race([exited.then(() => true), delay(STOP_TIMEOUT_MS).then(() => false)]);
  if (!stopped) {
    signalGroup('SIGKILL');
    await Promise.race([exited, delay(2_000)]);
  }
  // Anything the server left in its group.
  signalGroup('SIGKILL');
}

/**
 * Starts the built app as `npm start` would (production Strapi serving the SPA) on 127.0.0.1 with
 * its own temp SQLite DB and outbox, and waits until both the API and the SPA answer. `overrides`
 * go over the defaults below (an empty string counts as unset for most settings).
 */
export async function startE2eServer(overrides: Record<string, string> = {}, options: E2eServerOptions = {}): Promise<E2eServer> {
  assertBuilt();

  const tempDir = mkdtempSync(path.join(tmpdir(), 'carnivo-e2e-'));
  const logFile = path.join(tempDir, 'server.log');
  // The server's e-mails (password-reset codes, ...) land here as .eml files; tests read them.
  const outboxDir = path.join(tempDir, 'outbox');
  const port = options.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    NODE_ENV: 'production',
    // Production refuses a silent sandbox; the e2e server opts in as `npm start` does.
    PAYMENTS_MODE: 'sandbox',
    STRAPI_TELEMETRY_DISABLED: 'true',
    // Every test's browser and request come from 127.0.0.1: the per-address limits would refuse the
    // suite's sign-ups and log-ins. The limits themselves are attacked in server/tests.
    AUTH_RATELIMIT_MAX: '100000',
    AUTH_ADDRESS_LIMIT_PER_MINUTE: '100000',
    AUTH_ADDRESS_LIMIT_PER_DAY: '100000',
    DATABASE_CLIENT: 'sqlite',
    DATABASE_FILENAME: path.join(tempDir, 'data.db'),
    PUBLIC_URL: baseUrl,
    APP_KEYS: [secret(), secret(), secret(), secret()].join(','),
    API_TOKEN_SALT: secret(),
    ADMIN_JWT_SECRET: secret(),
    TRANSFER_TOKEN_SALT: secret(),
    JWT_SECRET: secret(),
    ENCRYPTION_KEY: secret(),
    // Never a real SMTP server, whatever the calling shell has set: the outbox provider.
    SMTP_HOST: '',
    EMAIL_OUTBOX_DIR: outboxDir,
    EMAIL_CONFIRMATION: 'false',
    // No reminder e-mails unless a test asks (production's default is an hourly job).
    GOAL_REMINDER_CRON: 'off',
    RENEWAL_REMINDER_CRON: 'off',
    // Social sign-in off unless the caller wires a double; never the real providers.
    FACEBOOK_APP_ID: '',
    FACEBOOK_APP_SECRET: '',
    FACEBOOK_AUTHORIZE_URL: '',
    FACEBOOK_GRAPH_URL: '',
    FACEBOOK_REDIRECT_URI: '',
    GOOGLE_CLIENT_ID: '',
    APPLE_SERVICE_ID: '',
    ...overrides,
  };

  let log: WriteStream | undefined;
  let child: ChildProcess | undefined;
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      if (child) await stopServer(child);
      if (log) await new Promise<void>((resolve) => log!.end(() => resolve()));
      rmSync(tempDir, { recursive: true, force: true });
    })();
    return stopping;
  };

  try {
    log = createWriteStream(logFile);
    await new Promise<void>((resolve, reject) => {
      log!.once('open', () => resolve());
      log!.once('error', reject);
    });
    child = spawn(process.execPath, [strapiBin, 'start'], {
      cwd: serverDir,
      env,
      detached: true,
      stdio: ['ignore', log, log],
    });
    // If the test process dies without stopping the server, still take the server down with it.
    const serverGroup = child.pid;
    process.once('exit', () => {
      try {
        if (serverGroup !== undefined) process.kill(-serverGroup, 'SIGKILL');
      } catch {
        // Already stopped.
      }
    });
    await waitUntilReady(baseUrl, child, logFile);
  } catch (error) {
    await stop();
    throw error;
  }

  return { baseUrl, outboxDir, stop };
}
