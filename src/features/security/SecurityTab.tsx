import { PasskeysPanel } from './PasskeysPanel';
import { PasswordChangePanel } from './PasswordChangePanel';
import { DevicesPanel } from './DevicesPanel';
import { TwoFactorPanel } from './TwoFactorPanel';

/**
 * The profile's Security tab: how the member signs in and where. Each part is a panel of this
 * feature with its own machine (docs/security.md: Password, Passkeys, Two-factor authentication,
 * Signed-in devices with "Log out of all devices").
 */
export function SecurityTab() {
  return (
    <section className="profile-card" aria-labelledby="security-heading">
      <h2 id="security-heading">Security</h2>
      <p>Manage how you sign in to Carnivo and where you are signed in.</p>
      <PasswordChangePanel />
      <PasskeysPanel />
      <TwoFactorPanel />
      <DevicesPanel />
    </section>
  );
}
