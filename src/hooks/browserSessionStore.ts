import { SESSION_KEYS, SOCIAL_REDIRECT_KEY, type Session } from '../../machines/services/session';

export function readStoredSession(storage: Storage = window.localStorage): Session | null {
  const jwt = storage.getItem(SESSION_KEYS.jwt);
  if (!jwt) return null;
  return { jwt, userId: storage.getItem(SESSION_KEYS.userId) ?? '' };
}

export function writeStoredSession(session: Session, storage: Storage = window.localStorage): void {
  storage.setItem(SESSION_KEYS.jwt, session.jwt);
  storage.setItem(SESSION_KEYS.userId, session.userId);
}

export function clearStoredSession(storage: Storage = window.localStorage): void {
  storage.removeItem(SESSION_KEYS.jwt);
  storage.removeItem(SESSION_KEYS.userId);
}

/** Calls back when another tab changes the stored session; returns the unsubscribe. */
export function watchStoredSession(onChange: (session: Session | null) => void): () => void {
  const listener = (event: StorageEvent) => {
    if (event.key === null || event.key === SESSION_KEYS.jwt || event.key === SESSION_KEYS.userId) {
      onChange(readStoredSession());
    }
  };
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
}

export function saveSocialRedirect(returnTo: string, storage: Storage = window.localStorage): void {
  storage.setItem(SOCIAL_REDIRECT_KEY, returnTo);
}

export function readSocialRedirect(storage: Storage = window.localStorage): string | null {
  return storage.getItem(SOCIAL_REDIRECT_KEY);
}

export function forgetSocialRedirect(storage: Storage = window.localStorage): void {
  storage.removeItem(SOCIAL_REDIRECT_KEY);
}
