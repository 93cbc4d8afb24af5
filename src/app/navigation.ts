import { useRouter, type AnyRouter } from '@tanstack/react-router';
import { useCallback } from 'react';
import type { NavigationRequest } from '../lib/navigation';

/** Carries out a machine's navigation request on the router. */
export function navigateTo(router: AnyRouter, request: NavigationRequest): void {
  void router.navigate({
    href: request.href,
    replace: request.replace,
    state: request.message ? { message: request.message } : undefined,
  });
}

/** The `navigate` action implementation a view gives its machine. */
export function useNavigateAction() {
  const router = useRouter();
  return useCallback((_: unknown, request: NavigationRequest) => navigateTo(router, request), [router]);
}
