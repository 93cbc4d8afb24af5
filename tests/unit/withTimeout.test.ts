import { describe, expect, it, vi } from 'vitest';
import { CHUNK_TIMEOUT_MS } from '../../src/hooks/lazyPage';
import { withTimeout } from '../../machines/rules/withTimeout';

describe('withTimeout', () => {
  it('rejects a chunk that has not loaded after 120 s, and not before', async () => {
    vi.useFakeTimers();
    const never = new Promise<never>(() => {});
    const settled = vi.fn();
    const result = withTimeout(never, CHUNK_TIMEOUT_MS, 'too slow').catch((error: Error) => {
      settled(error.message);
    });
    await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS - 1);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await result;
    expect(settled).toHaveBeenCalledWith('too slow');
    vi.useRealTimers();
  });

  it('passes a value through', async () => {
    await expect(withTimeout(Promise.resolve(5), 10, 'x')).resolves.toBe(5);
  });
});
