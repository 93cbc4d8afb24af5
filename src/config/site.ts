import { BRAND } from './brand';

/** Brand and company facts shown across the site; one place to change them. */
export const site = {
  brand: BRAND,
  tagline: 'The carnivore and ketovore diet companion',
  supportEmail: 'support@carnivo.app',
  businessEmail: 'hello@carnivo.app',
  phone: '+1 (503) 555-0142',
  supportHours: 'Monday to Friday, 9 AM to 5 PM Pacific',
  address: { street: '1200 NW Marshall Street, Suite 300', city: 'Portland, OR 97209', country: 'United States' },
  copyrightYear: 2025,
  /** Where the Contact and Company Details pages send people to write. */
  contactEmail: 'support@carnivo.app',
  stores: {
    appStore: 'https://apps.apple.com/app/carnivo-carnivore-diet/id6450000000',
    googlePlay: 'https://play.google.com/store/apps/details?id=app.carnivo.diet',
  },
  social: {
    facebook: 'https://www.facebook.com/carnivoapp',
    twitter: 'https://twitter.com/carnivoapp',
    instagram: 'https://www.instagram.com/carnivoapp',
  },
  /** Marketing figures of SPEC §1 and §9. */
  figures: {
    users: '50,000+',
    userCount: 50000,
    rating: 4.8,
    reviewCount: 50000,
    averageWeightLoss: '15 lbs',
    recipes: '500+',
    landingFreePlanDays: 21,
    downloadFreePlanDays: 7,
  },
  /** Legal pages show this fixed line (SPEC §2, §9). */
  legalLastUpdated: 'May 16, 2025',
} as const;

export function pageTitle(page: string): string {
  return `${site.brand} - ${page}`;
}
