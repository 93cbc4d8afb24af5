import { useCallback, useState } from 'react';
import { useHydrated } from '../../hooks/useHydrated';
import { SCREENSHOT_PLACEHOLDER, type Feature } from './content';

/** A feature's app screenshot; SPEC §8: if it fails to load, a placeholder image takes its place. */
export function FeatureScreenshot({ feature, lazy = true }: { feature: Feature; lazy?: boolean }) {
  const [failed, setFailed] = useState(false);
  // In a prerendered page the image may fail before React listens: hydration looks at it once.
  const hydrating = !useHydrated();
  const checkAlreadyFailed = useCallback(
    (image: HTMLImageElement | null) => {
      if (hydrating && image?.complete && image.naturalWidth === 0) setFailed(true);
    },
    [hydrating],
  );
  return (
    <img
      ref={checkAlreadyFailed}
      className="feature-card__screenshot"
      src={failed ? SCREENSHOT_PLACEHOLDER : feature.screenshot}
      alt={failed ? `${feature.title}: screenshot not available` : feature.screenshotAlt}
      width={240}
      height={480}
      loading={lazy ? 'lazy' : 'eager'}
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}
