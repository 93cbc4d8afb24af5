/**
 * Passkeys (WebAuthn, issue 23). The WebAuthn option and credential objects are the standard JSON
 * forms (`PublicKeyCredentialCreationOptionsJSON` and friends); the contract imports nothing, so they
 * are typed where they are made and read (@simplewebauthn/server and @simplewebauthn/browser).
 */

/** One of the member's passkeys, as GET /api/passkeys lists it. */
export type PasskeySummary = { id: number; name: string; createdAt: string; lastUsedAt: string | null };
/** GET /api/passkeys */
export type PasskeysResponse = { data: PasskeySummary[] };
/** POST /api/passkeys: the browser's registration response and an optional name. */
export type AddPasskeyPayload<Credential = unknown> = { name?: string; credential: Credential };
/** POST /api/passkeys answers the new passkey. */
export type AddPasskeyResponse = { data: PasskeySummary };
/** POST /api/auth/passkey: the browser's authentication response; answered like a password log-in. */
export type PasskeySignInPayload<Credential = unknown> = { credential: Credential };

export const PASSKEY_NAME_MAX_LENGTH = 60;
/** How long a registration or sign-in challenge may be answered. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;

export const passkeyMessages = {
  nameTooLong: `A passkey name can be at most ${PASSKEY_NAME_MAX_LENGTH} characters.`,
  nameInvalid: 'A passkey name must be text.',
  credentialMissing: 'The passkey response is missing. Please try again.',
  registrationFailed: 'This passkey could not be verified. Please try again.',
  challengeExpired: 'This passkey request has expired or was already used. Please try again.',
  alreadyRegistered: 'This passkey is already registered.',
  notFound: 'Passkey not found',
  signInFailed: 'This passkey could not sign you in. Please try again or log in with your password.',
  unknownPasskey: 'This passkey is not registered with Carnivo. Please log in with your password.',
  // SPA-side messages.
  unsupported: "This device can't create a passkey.",
  signInUnsupported: "This browser can't sign in with a passkey.",
  cancelled: 'No passkey was used. You can try again whenever you like.',
  addCancelled: 'No passkey was added. You can try again whenever you like.',
  loadFailed: 'Your passkeys could not be loaded. Please try again.',
  addFailed: 'The passkey could not be added. Please try again.',
  removeFailed: 'The passkey could not be removed. Please try again.',
  added: 'Passkey added.',
  removed: 'Passkey removed.',
} as const;

/** The name a member typed: trimmed, at most PASSKEY_NAME_MAX_LENGTH characters; empty means "derive one". */
export function checkPasskeyName(value: unknown): { ok: true; name: string } | { ok: false; message: string } {
  if (value === undefined || value === null) return { ok: true, name: '' };
  if (typeof value !== 'string') return { ok: false, message: passkeyMessages.nameInvalid };
  const name = value.trim().replace(/\s+/g, ' ');
  if (name.length > PASSKEY_NAME_MAX_LENGTH) return { ok: false, message: passkeyMessages.nameTooLong };
  return { ok: true, name };
}
