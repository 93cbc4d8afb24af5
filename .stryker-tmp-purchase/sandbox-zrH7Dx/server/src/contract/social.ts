// @ts-nocheck
export type SocialProvider = 'google' | 'apple' | 'facebook';
export const SOCIAL_PROVIDERS: readonly SocialProvider[] = ['google', 'apple', 'facebook'];

/** GET /api/social/config: which providers the server has set up, and the public ids the browser needs. */
export type SocialConfig = {
  google: { enabled: boolean; clientId: string | null };
  apple: { enabled: boolean; clientId: string | null; redirectURI: string | null };
  facebook: { enabled: boolean };
};
