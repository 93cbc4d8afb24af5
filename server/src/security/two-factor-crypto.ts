import crypto from 'node:crypto';

import { deriveKey, openText, sealText } from './at-rest';

/**
 * Two-factor secrets at rest (src/security/at-rest.ts): the user id is the additional data, so a
 * ciphertext copied onto another member's row does not decrypt.
 */

const PURPOSE = 'carnivo two-factor: secret at rest';
const HASH_PURPOSE = 'carnivo two-factor: recovery codes and tickets';

export { serverKeys } from './at-rest';

export const encryptSecret = (secret: string, userId: number, keys: string[]): string => sealText(secret, PURPOSE, `user:${userId}`, keys);

/** The secret, or null when no key opens it (tampered, another member's, a key no longer configured). */
export const decryptSecret = (stored: string, userId: number, keys: string[]): string | null =>
  openText(stored, PURPOSE, `user:${userId}`, keys);

/**
 * Recovery codes and log-in tickets carry 50 and 256 random bits, so a keyed fast hash is enough
 * (a slow one would only slow the log-in). Stored under the first server key; looked up under
 * every one, so a rotated key keeps unused recovery codes working.
 */
export const keyedHash = (value: string, key: string) =>
  crypto.createHmac('sha256', deriveKey(key, HASH_PURPOSE)).update(value).digest('hex');
export const keyedHashes = (value: string, keys: string[]) => keys.map((key) => keyedHash(value, key));

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** `xxxxx-xxxxx` from an alphabet without look-alikes (0/o, 1/l/i). */
export function newRecoveryCode(): string {
  const characters = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[crypto.randomInt(RECOVERY_ALPHABET.length)]);
  return `${characters.slice(0, 5).join('')}-${characters.slice(5).join('')}`;
}

export const newTicket = () => crypto.randomBytes(32).toString('base64url');
