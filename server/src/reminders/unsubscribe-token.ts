import crypto from 'node:crypto';

/**
 * The token of a reminder e-mail's one-click unsubscribe link: `<userId>.<HMAC-SHA256>`. The key
 * is derived from the server's APP_KEYS (the first signs, every one verifies, so rotating a new key
 * in front keeps the links already sent working); nobody can make a token for another user id.
 */

const PURPOSE = 'carnivo goal reminders: unsubscribe';

const keyFrom = (appKey: string) => crypto.createHmac('sha256', appKey).update(PURPOSE).digest();
const signature = (key: Buffer, userId: number) => crypto.createHmac('sha256', key).update(`user:${userId}`).digest('base64url');

export function signUnsubscribeToken(userId: number, appKeys: string[]): string {
  if (!appKeys[0]) throw new Error('unsubscribe token: no APP_KEYS to sign with');
  return `${userId}.${signature(keyFrom(appKeys[0]), userId)}`;
}

/** The user id a token was signed for, or null for anything else (tampered, truncated, another key). */
export function verifyUnsubscribeToken(token: unknown, appKeys: string[]): number | null {
  if (typeof token !== 'string') return null;
  const match = /^([1-9]\d{0,9})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const userId = Number(match[1]);
  const given = Buffer.from(match[2]);
  for (const appKey of appKeys.filter(Boolean)) {
    const expected = Buffer.from(signature(keyFrom(appKey), userId));
    if (expected.length === given.length && crypto.timingSafeEqual(expected, given)) return userId;
  }
  return null;
}
