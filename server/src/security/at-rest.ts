import crypto from 'node:crypto';

/**
 * Secrets at rest (two-factor secrets, the bodies of queued mail that hold a code or a link):
 * AES-256-GCM under a key derived (HMAC-SHA256 with a purpose string) from ENCRYPTION_KEY when it
 * is set, else from the first of APP_KEYS. Every candidate key decrypts, so a new key put in front
 * keeps what is stored readable; a stolen database (or an administrator reading it) gives nothing.
 *
 * Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url); `aad` binds the ciphertext to its row (a
 * member id, a message id), so one copied onto another row does not decrypt.
 */

export function serverKeys(encryptionKey: string | undefined, appKeys: string[]): string[] {
  const keys = [encryptionKey, ...appKeys].filter((key): key is string => typeof key === 'string' && key !== '');
  if (keys.length === 0) throw new Error('secrets at rest: neither ENCRYPTION_KEY nor APP_KEYS is set');
  return keys;
}

export const deriveKey = (serverKey: string, purpose: string) => crypto.createHmac('sha256', serverKey).update(purpose).digest();

export function sealText(plain: string, purpose: string, aad: string, keys: string[]): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', deriveKey(keys[0], purpose), iv);
  cipher.setAAD(Buffer.from(aad));
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The text, or null when no key opens it (tampered, another row's, a key no longer configured). */
export function openText(stored: string, purpose: string, aad: string, keys: string[]): string | null {
  const [version, iv, tag, ciphertext] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined) return null;
  for (const key of keys) {
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', deriveKey(key, purpose), Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(aad));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      // Not this key: try the next.
    }
  }
  return null;
}
