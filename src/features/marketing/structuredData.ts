import { site } from '../../config/site';

/**
 * JSON-LD of the landing page (SPEC §2, §9): the mobile app, the organization and the site search, on the
 * site's public origin (`origin`: PUBLIC_URL as the server rendered the page, or the browser's).
 */
export function landingStructuredData(origin: string) {
  const organization = {
    '@type': 'Organization',
    '@id': `${origin}/#organization`,
    name: site.brand,
    url: origin,
    logo: `${origin}/favicon.svg`,
    email: site.contactEmail,
    telephone: site.phone,
    address: {
      '@type': 'PostalAddress',
      streetAddress: site.address.street,
      addressLocality: 'Portland',
      addressRegion: 'OR',
      postalCode: '97209',
      addressCountry: 'US',
    },
    sameAs: [site.social.facebook, site.social.twitter, site.social.instagram],
  };
  return {
    '@context': 'https://schema.org',
    '@graph': [
      {
        '@type': 'MobileApplication',
        name: site.brand,
        description: `${site.tagline}: ${site.figures.recipes} recipes, meal planner, elimination-diet and weight tracking.`,
        operatingSystem: 'iOS, Android',
        applicationCategory: 'HealthApplication',
        installUrl: [site.stores.appStore, site.stores.googlePlay],
        aggregateRating: {
          '@type': 'AggregateRating',
          ratingValue: site.figures.rating,
          reviewCount: site.figures.reviewCount,
          bestRating: 5,
        },
        offers: { '@type': 'Offer', price: 0, priceCurrency: 'USD' },
        publisher: { '@id': organization['@id'] },
      },
      organization,
      {
        '@type': 'WebSite',
        name: site.brand,
        url: origin,
        potentialAction: {
          '@type': 'SearchAction',
          target: { '@type': 'EntryPoint', urlTemplate: `${origin}/search?q={search_term_string}` },
          'query-input': 'required name=search_term_string',
        },
      },
    ],
  };
}

/** JSON for a <script type="application/ld+json">: '<' is escaped so the text cannot close the tag. */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
