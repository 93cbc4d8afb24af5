/** What the browser keeps of a login (SPEC §3 storage keys jwt and userId). */
export type Session = { jwt: string; userId: string };

export const SESSION_KEYS = { jwt: 'jwt', userId: 'userId' } as const;

/** SPEC §3: the return route saved before leaving for a social provider. */
export const SOCIAL_REDIRECT_KEY = 'socialLoginRedirect';
