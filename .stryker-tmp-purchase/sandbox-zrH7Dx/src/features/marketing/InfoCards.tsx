/** A grid of titled cards (values, principles) used across the company pages. */
// @ts-nocheck

export function InfoCards({ items, columns }: { items: ReadonlyArray<{ title: string; text: string }>; columns: 'three' | 'four' }) {
  return (
    <div className={`card-grid card-grid--${columns}`}>
      {items.map(({ title, text }) => (
        <article key={title} className="info-card">
          <h3>{title}</h3>
          <p>{text}</p>
        </article>
      ))}
    </div>
  );
}
