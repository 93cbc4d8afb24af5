// @ts-nocheck
import { act } from '@testing-library/react';

/**
 * Retries `check` for up to `timeoutMs` of real time while promises and real I/O
 * (lazy chunks) run, without touching timers — so it works under fake timers,
 * where waitFor would stall.
 */
export async function settle(check: () => void, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (performance.now() > deadline) throw error;
      await act(() => new Promise<void>((resolve) => setImmediate(resolve)));
    }
  }
}
