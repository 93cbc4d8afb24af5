/** Holds the Subscriptions tab's place until the subscription issue lands. */
export function SubscriptionsTab() {
  return (
    <section className="profile-card" aria-label="Subscriptions">
      <h2>Subscriptions</h2>
      <p className="placeholder__badge">Placeholder: subscriptions are coming soon.</p>
      <p>Plans, payment and cancellation will appear here.</p>
    </section>
  );
}
