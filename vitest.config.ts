import os from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const LIGHTHOUSE = 'tests/e2e/lighthouse.test.ts';
// Server files run side by side, one per worker, each on its own SQLite file, port, upload and
// outbox directories, PostgreSQL schema and Redis database (server/tests/helpers). Three at least,
// even on two cores: a file often waits on its server (495 s with three, 610 s with two, Nov 2026).
// At most six Redis databases are taken.
const serverWorkers = Number(process.env.SERVER_TEST_WORKERS ?? Math.min(6, Math.max(3, os.availableParallelism())));

export default defineConfig({
  test: {
    reporters: ['default', './tests/support/closing-line-reporter.ts'],
    projects: [
      {
        plugins: [react()],
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/views/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/support/setup-dom.ts'],
          // The first render of a lazy page transforms its chunk; on two busy cores that can take seconds.
          testTimeout: 20_000,
          // Two at least: vitest's default leaves one core idle, and on this 2-core machine that doubled the
          // project's time (386 s with one worker, 184 s with two; docs/testing.md).
          maxWorkers: Math.max(2, os.availableParallelism() - 1),
          restoreMocks: true,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/tests/**/*.test.ts'],
          exclude: ['server/tests/faults/**'],
          globalSetup: ['server/tests/global-setup.ts'],
          pool: 'forks',
          maxWorkers: serverWorkers,
          // A group of its own: the unit project keeps vitest's default number of workers.
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 240_000,
        },
      },
      {
        test: {
          // Crashes and outages against spawned instances and their own PostgreSQL, Redis and SMTP (docs/operations.md).
          name: 'faults',
          environment: 'node',
          include: ['server/tests/faults/**/*.test.ts'],
          globalSetup: ['server/tests/global-setup.ts'],
          pool: 'forks',
          fileParallelism: false,
          // After the server files, and not beside the browser tests: Lighthouse's budgets need the cores.
          sequence: { groupOrder: 2 },
          testTimeout: 180_000,
          hookTimeout: 240_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          exclude: [LIGHTHOUSE],
          globalSetup: ['tests/e2e/global-setup.ts'],
          pool: 'forks',
          // Two files at a time against the one e2e server: a browser test mostly waits (480 s one at a
          // time, 309 s two at a time on two cores, Nov 2026; docs/testing.md).
          maxWorkers: 2,
          sequence: { groupOrder: 3 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // Alone, last of all, on a server it starts itself (a global setup's would boot at the run's start):
          // its budgets need the machine as quiet as a run gets.
          name: 'lighthouse',
          environment: 'node',
          include: [LIGHTHOUSE],
          pool: 'forks',
          sequence: { groupOrder: 4 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
