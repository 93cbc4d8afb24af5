// @ts-nocheck
export function FaqsTab() {
  return (
    <section className="profile-card" aria-label="FAQs">
      <h2>FAQs</h2>
      <p>Answers to common questions about your account, diet tracking and subscriptions.</p>
      <button type="button" className="button button--primary" onClick={() => window.alert('FAQs coming soon!')}>
        View FAQs
      </button>
    </section>
  );
}
