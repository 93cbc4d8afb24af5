import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, portAnswers } from './ports';

/**
 * A private PostgreSQL and a private Redis for fault tests: they are stopped and started at will,
 * while the machine's shared ones (5432, 6379) are never touched. Each runs from a temp dir on a
 * free port and is removed when the test ends, or at the latest when the test process exits.
 */

export interface PostgresTarget {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

export interface RedisTarget {
  host: string;
  port: number;
}

export interface OwnService {
  /** Stops it abruptly (PostgreSQL: pg_ctl stop -m immediate; Redis: SIGKILL). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  restart(): Promise<void>;
  /** Stops it and removes its temp dir; safe to call twice. */
  cleanup(): Promise<void>;
}

export type OwnPostgres = OwnService & { target: PostgresTarget };
export type OwnRedis = OwnService & { target: RedisTarget };

const onPath = (binary: string) => spawnSync('which', [binary], { encoding: 'utf8' }).status === 0;

/** initdb refuses to run as root: then it runs as the `postgres` OS user, through runuser or su. */
function postgresRunner(): { wrap(command: string[]): string[]; owner: { uid: number; gid: number } | null } | string {
  if (process.getuid?.() !== 0) return { wrap: (command) => command, owner: null };
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (uid.status !== 0 || gid.status !== 0) return 'running as root and there is no `postgres` OS user to run initdb as';
  const owner = { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  if (onPath('runuser')) return { wrap: (command) => ['runuser', '-u', 'postgres', '--', ...command], owner };
  if (onPath('su'))
    return { wrap: (command) => ['su', 'postgres', '-c', command.map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ')], owner };
  return 'running as root with neither runuser nor su to run initdb as the `postgres` user';
}

/** Why a private PostgreSQL cannot be started here, or null. */
export function ownPostgresMissing(): string | null {
  for (const binary of ['initdb', 'pg_ctl']) if (!onPath(binary)) return `${binary} is not on PATH`;
  const runner = postgresRunner();
  return typeof runner === 'string' ? runner : null;
}

/** Why a private Redis cannot be started here, or null. */
export const ownRedisMissing = (): string | null => (onPath('redis-server') ? null : 'redis-server is not on PATH');

async function untilPort(port: number, open: boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await portAnswers('127.0.0.1', port, 500)) === open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: port ${port} did not ${open ? 'open' : 'close'} within ${timeoutMs} ms`);
}

/** Clean-ups still owed when the process exits (a crashed test skips its afterAll). */
const owed = new Set<() => void>();
let exitHookInstalled = false;
function oweCleanup(cleanup: () => void): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const pending of owed) pending();
    });
  }
  owed.add(cleanup);
  return () => owed.delete(cleanup);
}

function run(command: string[], what: string): void {
  const result = spawnSync(command[0], command.slice(1), { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`${what} failed (${command.join(' ')}):\n${result.stdout}\n${result.stderr}`);
}

/** initdb (trust auth) into a temp dir, then pg_ctl start on a free port of 127.0.0.1. */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const runner = postgresRunner();
  if (typeof runner === 'string') throw new Error(runner);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carnivo-own-pg-'));
  if (runner.owner) fs.chownSync(dir, runner.owner.uid, runner.owner.gid);
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  const pgCtl = (...args: string[]) => runner.wrap(['pg_ctl', '-D', dataDir, ...args]);

  run(runner.wrap(['initdb', '-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']), 'initdb');
  let running = false;
  const stopNow = () => {
    const [command, ...args] = pgCtl('-m', 'immediate', '-w', 'stop');
    spawnSync(command, args, { timeout: 30_000 });
    running = false;
  };
  const forget = oweCleanup(() => {
    if (running) stopNow();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const service: OwnPostgres = {
    target: { host: '127.0.0.1', port, user: 'postgres', password: '', database: 'postgres' },
    async start() {
      const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
      run(pgCtl('-l', path.join(dir, 'postgres.log'), '-w', '-t', '30', '-o', options, 'start'), 'pg_ctl start');
      running = true;
      await untilPort(port, true, 10_000, 'PostgreSQL');
    },
    async stop() {
      stopNow();
      await untilPort(port, false, 10_000, 'PostgreSQL');
    },
    async restart() {
      await service.stop();
      await service.start();
    },
    async cleanup() {
      if (running) stopNow();
      fs.rmSync(dir, { recursive: true, force: true });
      forget();
    },
  };
  await service.start();
  return service;
}

/** redis-server on a free port, with no persistence. */
export async function startOwnRedis(): Promise<OwnRedis> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carnivo-own-redis-'));
  const port = await freePort();
  let child: ChildProcess | null = null;
  const killNow = () => {
    child?.kill('SIGKILL');
    child = null;
  };
  const forget = oweCleanup(() => {
    killNow();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const service: OwnRedis = {
    target: { host: '127.0.0.1', port },
    async start() {
      // Already running (an afterAll that starts it again in case a test left it stopped): a second
      // redis-server would fail to bind, and the running one, its handle overwritten, would outlive the run.
      if (child && child.exitCode === null && child.signalCode === null) return;
      const log = fs.openSync(path.join(dir, 'redis.log'), 'a');
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
        stdio: ['ignore', log, log],
      });
      fs.closeSync(log);
      await untilPort(port, true, 10_000, 'Redis');
    },
    async stop() {
      const running = child;
      const exited = running && running.exitCode === null ? new Promise((resolve) => running.once('exit', resolve)) : Promise.resolve();
      killNow();
      await exited;
      await untilPort(port, false, 10_000, 'Redis');
    },
    async restart() {
      await service.stop();
      await service.start();
    },
    async cleanup() {
      killNow();
      fs.rmSync(dir, { recursive: true, force: true });
      forget();
    },
  };
  await service.start();
  return service;
}
