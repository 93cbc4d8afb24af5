/** What the browser keeps of a login (SPEC §3 storage keys jwt and userId). */
export type Session = { jwt: string; userId: string };

export const SESSION_KEYS = { jwt: 'jwt', userId: 'userId' } as const;
