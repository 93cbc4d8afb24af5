// @ts-nocheck
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function subscribeReducedMotion(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => {};
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

const prefersReducedMotion = () => typeof window.matchMedia === 'function' && window.matchMedia(REDUCED_MOTION).matches;

export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(subscribeReducedMotion, prefersReducedMotion, () => false);
}

/**
 * An index that moves to the next of `count` items every `intervalMs`. It stands still when the
 * visitor prefers reduced motion or pauses it; choosing an item restarts the wait.
 */
export function useRotatingIndex(count: number, intervalMs: number) {
  const reducedMotion = usePrefersReducedMotion();
  const [index, setIndex] = useState(0);
  const [pausedByUser, setPausedByUser] = useState(false);
  const running = count > 1 && !reducedMotion && !pausedByUser;

  useEffect(() => {
    if (!running) return;
    const timer = window.setTimeout(() => setIndex((current) => (current + 1) % count), intervalMs);
    return () => window.clearTimeout(timer);
  }, [running, index, count, intervalMs]);

  const select = useCallback((next: number) => setIndex(((next % count) + count) % count), [count]);
  const togglePaused = useCallback(() => setPausedByUser((paused) => !paused), []);
  return { index, select, running, reducedMotion, pausedByUser, togglePaused };
}
