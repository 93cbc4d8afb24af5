// @ts-nocheck
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
