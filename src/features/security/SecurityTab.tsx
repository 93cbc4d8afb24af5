import { TwoFactorPanel } from './TwoFactorPanel';

/**
 * The profile's Security tab: how the member signs in and where. Each part is a panel of this
 * feature with its own machine (docs/security.md#account-security).
 */
export function SecurityTab() {
  return (
    <section className="profile-card" aria-labelledby="security-heading">
      <h2 id="security-heading">Security</h2>
      <p>Manage how you sign in to Carnivo and where you are signed in.</p>
      <TwoFactorPanel />
    </section>
  );
}
