import { useRouter, type AnyRouter } from '@tanstack/react-router';
import { useCallback } from 'react';
import type { NavigationRequest } from '../../machines/rules/navigation';

/**
 * Carries out a machine's navigation request on the router. Typed by AnyRouter, not the app's router,
 * so views need not import the route tree (router.tsx checks AppPath against it instead).
 */
export function navigateTo(router: Pick<AnyRouter, 'navigate'>, request: NavigationRequest): void {
  if ('href' in request) {
    void router.navigate({ href: request.href, replace: request.replace });
    return;
  }
  void router.navigate({ to: request.to, search: request.search ?? {}, replace: request.replace });
}

/** The `navigate` action implementation a view gives its machine. */
export function useNavigateAction() {
  const router = useRouter();
  return useCallback((_: unknown, request: NavigationRequest) => navigateTo(router, request), [router]);
}
