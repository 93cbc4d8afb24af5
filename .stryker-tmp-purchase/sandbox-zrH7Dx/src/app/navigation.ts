// @ts-nocheck
import { useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';
import type { NavigationRequest } from '../lib/navigation';
import type { AppRouter } from './router';

/** Carries out a machine's navigation request on the router. */
export function navigateTo(router: AppRouter, request: NavigationRequest): void {
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
