/**
 * Rules for the identity fields, shared by the SPA's forms and the server's guards. Plain
 * TypeScript only: the SPA bundles this file and Strapi compiles it to CommonJS.
 */
// @ts-nocheck


// The spec's "{email}" pattern: one @, no spaces, a dot in the domain.
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The longest address the server stores (RFC 5321's path limit). */
export const EMAIL_MAX_LENGTH = 254;

/** Whether the trimmed text reads as an e-mail address. */
export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

export const USERNAME_LENGTH = { min: 3, max: 30 } as const;

// ASCII only, and never '@', so a username can't be mistaken for an e-mail at log-in.
export const USERNAME_PATTERN = /^[A-Za-z0-9._-]+$/;

/** The username messages, word for word as the server sends them and the forms show them. */
export const usernameMessages = {
  required: 'Username is required',
  tooShort: 'Username must be at least 3 characters',
  tooLong: 'Username must be at most 30 characters',
  invalidCharacters: 'Username may only contain letters, digits, ".", "_" and "-"',
  taken: 'Username already taken',
} as const;

/** The first rule a username breaks, or null. Callers trim first: a stored name with spaces is broken. */
export function usernameError(username: string): string | null {
  if (!username) return usernameMessages.required;
  if (username.length < USERNAME_LENGTH.min) return usernameMessages.tooShort;
  if (username.length > USERNAME_LENGTH.max) return usernameMessages.tooLong;
  if (!USERNAME_PATTERN.test(username)) return usernameMessages.invalidCharacters;
  return null;
}
