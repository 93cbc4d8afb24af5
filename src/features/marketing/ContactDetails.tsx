import { site } from '../../config/site';

export function PostalAddress() {
  return (
    <address>
      {site.brand}
      <br />
      {site.address.street}
      <br />
      {site.address.city}
      <br />
      {site.address.country}
    </address>
  );
}

/** The support line as a card: a dialable link (digits and + only) and the hours it answers. */
export function PhoneCard() {
  return (
    <article className="info-card">
      <h3>Phone</h3>
      <p>
        <a href={`tel:${site.phone.replace(/[^+\d]/g, '')}`}>{site.phone}</a>
      </p>
      <p className="muted">{site.supportHours}</p>
    </article>
  );
}
