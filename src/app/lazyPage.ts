import { lazyRouteComponent } from '@tanstack/react-router';
import { withTimeout } from '../lib/withTimeout';

/** SPEC §7: page script chunks load lazily with a 120-second time-out. */
export const CHUNK_TIMEOUT_MS = 120_000;

export function lazyPage<TModule extends Record<string, unknown>>(
  importer: () => Promise<TModule>,
  exportName: keyof TModule & string,
) {
  return lazyRouteComponent(
    () => withTimeout(importer(), CHUNK_TIMEOUT_MS, 'This page took too long to load.'),
    exportName,
  );
}
