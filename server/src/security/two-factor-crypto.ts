import crypto from 'node:crypto';

/**
 * Two-factor secrets at rest: AES-256-GCM under a key derived (HMAC-SHA256 with a purpose string,
 * as src/reminders/unsubscribe-token.ts derives its key) from ENCRYPTION_KEY when it is set, else
 * from the first of APP_KEYS. Every candidate key decrypts, so a new key put in front keeps the
 * stored secrets readable; a stolen database alone gives no secret.
 *
 * Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url); the user id is the additional data, so a
 * ciphertext copied onto another member's row does not decrypt.
 */

const PURPOSE = 'carnivo two-factor: secret at rest';
const HASH_PURPOSE = 'carnivo two-factor: recovery codes and tickets';

export function serverKeys(encryptionKey: string | undefined, appKeys: string[]): string[] {
  const keys = [encryptionKey, ...appKeys].filter((key): key is string => typeof key === 'string' && key !== '');
  if (keys.length === 0) throw new Error('two-factor: neither ENCRYPTION_KEY nor APP_KEYS is set');
  return keys;
}

const derive = (serverKey: string, purpose: string) => crypto.createHmac('sha256', serverKey).update(purpose).digest();

export function encryptSecret(secret: string, userId: number, keys: string[]): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', derive(keys[0], PURPOSE), iv);
  cipher.setAAD(Buffer.from(`user:${userId}`));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The secret, or null when no key opens it (tampered, another member's, a key no longer configured). */
export function decryptSecret(stored: string, userId: number, keys: string[]): string | null {
  const [version, iv, tag, ciphertext] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined) return null;
  for (const key of keys) {
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', derive(key, PURPOSE), Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(`user:${userId}`));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      // Not this key: try the next.
    }
  }
  return null;
}

/**
 * Recovery codes and log-in tickets carry 50 and 256 random bits, so a keyed fast hash is enough
 * (a slow one would only slow the log-in). Stored under the first server key; looked up under
 * every one, so a rotated key keeps unused recovery codes working.
 */
export const keyedHash = (value: string, key: string) => crypto.createHmac('sha256', derive(key, HASH_PURPOSE)).update(value).digest('hex');
export const keyedHashes = (value: string, keys: string[]) => keys.map((key) => keyedHash(value, key));

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** `xxxxx-xxxxx` from an alphabet without look-alikes (0/o, 1/l/i). */
export function newRecoveryCode(): string {
  const characters = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[crypto.randomInt(RECOVERY_ALPHABET.length)]);
  return `${characters.slice(0, 5).join('')}-${characters.slice(5).join('')}`;
}

export const newTicket = () => crypto.randomBytes(32).toString('base64url');
