import { createElement, lazy, type ComponentType } from 'react';
import { lazyRouteComponent } from '@tanstack/react-router';
import { withTimeout } from '../../machines/rules/withTimeout';

/** SPEC §7: page script chunks load lazily with a 120-second time-out. */
export const CHUNK_TIMEOUT_MS = 120_000;
const PAGE_TIMEOUT_MESSAGE = 'This page took too long to load.';

export function lazyPage<TModule extends Record<string, unknown>, TName extends keyof TModule & string>(
  importer: () => Promise<TModule>,
  exportName: TName,
) {
  return lazyRouteComponent(() => withTimeout(importer(), CHUNK_TIMEOUT_MS, PAGE_TIMEOUT_MESSAGE), exportName);
}

/**
 * A component chunk inside a page (e.g. a tab), under the same 120-second loader as the pages.
 * A failed load stays failed: make a new one to try again.
 */
export function lazyChunk<TModule extends Record<string, unknown>, TName extends keyof TModule & string>(
  importer: () => Promise<TModule>,
  exportName: TName,
) {
  return preloadableChunk(() => importer().then((module) => module[exportName] as ComponentType)).Chunk;
}

/**
 * A component chunk that can also be loaded ahead (`load`): the server does, so that its render has the
 * component at once. Once loaded it renders without suspending; before, under the caller's Suspense.
 */
export function preloadableChunk<Props extends object>(importer: () => Promise<ComponentType<Props>>) {
  let loaded: ComponentType<Props> | undefined;
  const load = () => withTimeout(importer(), CHUNK_TIMEOUT_MS, PAGE_TIMEOUT_MESSAGE).then((component) => (loaded = component));
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  const Chunk = (props: Props) => createElement(loaded ?? Lazy, props);
  return { Chunk, load };
}
