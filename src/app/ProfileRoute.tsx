import { Suspense, useState } from 'react';
import { CatchBoundary } from '@tanstack/react-router';
import { lazyChunk } from '../hooks/lazyPage';
import { LoadFailure } from '../components/RouteErrorView';
import { ProfilePage } from '../features/profile/ProfilePage';

/** /profile: the app puts the subscriptions feature into the profile's Subscriptions tab (features never import each other). */
export function ProfileRoute() {
  return <ProfilePage subscriptionsPanel={<SubscriptionsPanel />} />;
}

const loadSubscriptionsTab = () => lazyChunk(() => import('../features/subscriptions/SubscriptionsTab'), 'SubscriptionsTab');

// Payment code (and Stripe.js) load only when the Subscriptions tab is opened, under the pages' 120 s loader.
function SubscriptionsPanel() {
  // A failed chunk load stays failed (React caches it): each Retry makes a new loader.
  const [loader, setLoader] = useState(() => ({ attempt: 0, SubscriptionsTab: loadSubscriptionsTab() }));
  const { attempt, SubscriptionsTab } = loader;
  return (
    <CatchBoundary
      getResetKey={() => attempt}
      errorComponent={({ error }) => (
        // The tab's chunk failed or timed out: say so in the tab.
        <section className="profile-card">
          <LoadFailure error={error} onRetry={() => setLoader({ attempt: attempt + 1, SubscriptionsTab: loadSubscriptionsTab() })} />
        </section>
      )}
    >
      <Suspense fallback={<p>Loading subscriptions…</p>}>
        <SubscriptionsTab />
      </Suspense>
    </CatchBoundary>
  );
}
