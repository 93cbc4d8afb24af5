import { Suspense, useState } from 'react';
import { CatchBoundary } from '@tanstack/react-router';
import { lazyChunk } from '../hooks/lazyPage';
import { LoadFailure } from '../components/RouteErrorView';
import { ProfilePage } from '../features/profile/ProfilePage';

/** /profile: the app puts the subscriptions and security features into their tabs (features never import each other). */
export function ProfileRoute() {
  return (
    <ProfilePage
      subscriptionsPanel={<LazyTabPanel load={loadSubscriptionsTab} loading="Loading subscriptions…" />}
      securityPanel={<LazyTabPanel load={loadSecurityTab} loading="Loading security settings…" />}
    />
  );
}

// Payment code (and Stripe.js) load only when the Subscriptions tab is opened, under the pages' 120 s loader.
const loadSubscriptionsTab = () => lazyChunk(() => import('../features/subscriptions/SubscriptionsTab'), 'SubscriptionsTab');
// Passkeys, two-factor and devices load only when the Security tab is opened.
const loadSecurityTab = () => lazyChunk(() => import('../features/security/SecurityTab'), 'SecurityTab');

function LazyTabPanel({ load, loading }: { load: () => ReturnType<typeof lazyChunk>; loading: string }) {
  // A failed chunk load stays failed (React caches it): each Retry makes a new loader.
  const [loader, setLoader] = useState(() => ({ attempt: 0, Tab: load() }));
  const { attempt, Tab } = loader;
  return (
    <CatchBoundary
      getResetKey={() => attempt}
      errorComponent={({ error }) => (
        // The tab's chunk failed or timed out: say so in the tab.
        <section className="profile-card">
          <LoadFailure error={error} onRetry={() => setLoader({ attempt: attempt + 1, Tab: load() })} />
        </section>
      )}
    >
      <Suspense fallback={<p>{loading}</p>}>
        <Tab />
      </Suspense>
    </CatchBoundary>
  );
}
