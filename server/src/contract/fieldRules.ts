/**
 * Rules for the identity fields, shared by the SPA's forms and the server's guards. Plain
 * TypeScript only: the SPA bundles this file and Strapi compiles it to CommonJS.
 */

/** Empty once trimmed: what the spec's "required" and "non-blank" rules refuse. */
export const isBlank = (value: string): boolean => value.trim().length === 0;

/** The longest address the server stores (RFC 5321's path limit). */
export const EMAIL_MAX_LENGTH = 254;
/** The longest local part (before the @) RFC 5321 allows. */
const EMAIL_LOCAL_MAX_LENGTH = 64;

// Characters of an unquoted local part (RFC 5322 atext, as browsers' type="email" takes them) and of
// any script's letters. No quotes, angle brackets, commas, semicolons, colons, parentheses, brackets,
// backslashes, spaces or control characters: the mail queue and an SMTP server would read those as
// list, name or comment syntax, or as a header break.
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\-\\p{L}\\p{M}\\p{N}]+";
const LABEL = '[A-Za-z0-9\\p{L}\\p{M}\\p{N}](?:[A-Za-z0-9\\p{L}\\p{M}\\p{N}-]{0,61}[A-Za-z0-9\\p{L}\\p{M}\\p{N}])?';
// The last label is a top-level domain: letters (any length, any script) or an IDN's punycode.
const TLD = '(?:[A-Za-z\\p{L}\\p{M}]{2,63}|xn--[A-Za-z0-9-]{1,59})';

/**
 * The spec's "{email}" rule, and the one address rule of the server: dot-separated atoms, one @, a
 * domain of dot-separated labels ending in a top-level domain. The forms, every route that takes an
 * address and the mail queue all ask isValidEmail (docs/security.md#e-mail-addresses).
 */
const EMAIL_PATTERN = new RegExp(`^${ATOM}(?:\\.${ATOM})*@(?:${LABEL}\\.)+${TLD}$`, 'u');

/** The spec's words for an address the rule refuses (SPEC §5): the sign-up and reset forms', and the profile's. */
export const emailMessages = {
  invalid: 'Please enter a valid email address.',
  invalidFormat: 'Invalid email format',
} as const;

/** Whether the trimmed text is an address the site takes and can send to. */
export function isValidEmail(value: string): boolean {
  const address = value.trim();
  if (address.length > EMAIL_MAX_LENGTH || address.indexOf('@') > EMAIL_LOCAL_MAX_LENGTH) return false;
  return EMAIL_PATTERN.test(address);
}

// SPEC §9 username minimum; the maximum is the server's. Plain constants, so that each message built
// from them is a constant string (a bundle that shows none drops them).
const USERNAME_MIN = 3;
const USERNAME_MAX = 30;
export const USERNAME_LENGTH = { min: USERNAME_MIN, max: USERNAME_MAX } as const;

// ASCII only, and never '@', so a username can't be mistaken for an e-mail at log-in.
export const USERNAME_PATTERN = /^[A-Za-z0-9._-]+$/;

/** The username messages, word for word as the server sends them and the forms show them. */
export const usernameMessages = {
  required: 'Username is required',
  tooShort: `Username must be at least ${USERNAME_MIN} characters`,
  tooLong: `Username must be at most ${USERNAME_MAX} characters`,
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
