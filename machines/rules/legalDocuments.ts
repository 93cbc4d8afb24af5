/** The three legal pages (SPEC §2, §3, §7, §8): where they live, what they call, what they show on failure. */
export type LegalDocumentSpec = {
  /** The SPA route. */
  route: '/privacy-policy' | '/terms' | '/refund-policy';
  /** The GET call of SPEC §7. */
  apiPath: string;
  /** The response field holding the title: the privacy policy names it Text, the others Title (SPEC §3). */
  titleField: 'Text' | 'Title';
  /** SPEC §8, shown with a Retry button. */
  errorText: string;
  /** Used in the tab title ('{brand} - Privacy Policy') and until the server's title arrives. */
  pageName: string;
  description: string;
};

export const legalDocuments = {
  privacyPolicy: {
    route: '/privacy-policy',
    apiPath: '/api/privacy-policy',
    titleField: 'Text',
    errorText: 'Failed to load Privacy Policy',
    pageName: 'Privacy Policy',
    description: 'What Carnivo collects, why, how long it is kept and how to delete your account and data.',
  },
  terms: {
    route: '/terms',
    apiPath: '/api/terms-and-condition',
    titleField: 'Title',
    errorText: 'Failed to load Terms and Conditions',
    pageName: 'Terms and Conditions',
    description: 'The terms of the Carnivo apps and web site: subscription, cancellation, acceptable use and health disclaimer.',
  },
  refundPolicy: {
    route: '/refund-policy',
    apiPath: '/api/refund-policy',
    titleField: 'Title',
    errorText: 'Failed to load Refund Policy',
    pageName: 'Refund Policy',
    description: "Carnivo's 30-day money-back guarantee: how to ask for a refund and what happens after you cancel.",
  },
} as const satisfies Record<string, LegalDocumentSpec>;

export type LegalDocumentKind = keyof typeof legalDocuments;

/** The fixed line of SPEC §2 and §9. */
export const LEGAL_LAST_UPDATED = 'Last Updated: May 16, 2025';
