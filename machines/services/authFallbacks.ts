/** SPEC §8 fallbacks of the auth calls; apart from machines/services/auth so the first paint needs no API client. */
export const REGISTER_FALLBACK = 'Registration failed';
export const LOGIN_FALLBACK = 'Login failed';
