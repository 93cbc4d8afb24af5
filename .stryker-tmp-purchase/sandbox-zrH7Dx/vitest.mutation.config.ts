// @ts-nocheck
import { defineConfig } from 'vitest/config';

/**
 * The tests Stryker runs per mutant of machines/ (`npm run test:mutation`): the machine unit tests only.
 * They are pure (no DOM, no app), so each mutant takes milliseconds. The view path tests also exercise
 * the machines, but render the whole app: per mutant on two cores, they would take hours.
 */
export default defineConfig({
  test: {
    include: ['tests/unit/machines/**/*.test.ts'],
    environment: 'node',
    restoreMocks: true,
  },
});
