import { useCallback } from 'react';

/**
 * The `redirectTo` action implementation a view gives its machine: a full-page load of `url`, leaving
 * the app. Not in navigation.ts, which the entry bundle carries: only lazy pages redirect.
 */
export function useRedirectAction() {
  return useCallback((_: unknown, url: string) => window.location.assign(url), []);
}
