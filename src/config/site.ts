/** Brand and company facts shown across the site; one place to change them. */
export const site = {
  brand: 'Carnivo',
  tagline: 'The carnivore and ketovore diet companion',
  supportEmail: 'support@carnivo.app',
  businessEmail: 'hello@carnivo.app',
  phone: '+1 (503) 555-0142',
  supportHours: 'Monday to Friday, 9 AM to 5 PM Pacific',
  address: { street: '1200 NW Marshall Street, Suite 300', city: 'Portland, OR 97209', country: 'United States' },
  copyrightYear: 2025,
} as const;

export function pageTitle(page: string): string {
  return `${site.brand} - ${page}`;
}
