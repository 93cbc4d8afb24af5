import { describe, expect, it, vi } from 'vitest';
import { clearStoredSession, readStoredSession, watchStoredSession, writeStoredSession } from '../../src/hooks/browserSessionStore';

describe('browser session store', () => {
  it('keeps only jwt and userId', () => {
    writeStoredSession({ jwt: 'token', userId: '12' });
    expect({ ...localStorage }).toEqual({ jwt: 'token', userId: '12' });
    expect(readStoredSession()).toEqual({ jwt: 'token', userId: '12' });
    clearStoredSession();
    expect(localStorage.length).toBe(0);
    expect(readStoredSession()).toBeNull();
  });

  it("reports other tabs' changes to the session keys only", () => {
    const onChange = vi.fn();
    const stop = watchStoredSession(onChange);
    window.dispatchEvent(new StorageEvent('storage', { key: 'unrelated' }));
    expect(onChange).not.toHaveBeenCalled();
    localStorage.setItem('jwt', 'from-other-tab');
    window.dispatchEvent(new StorageEvent('storage', { key: 'jwt' }));
    expect(onChange).toHaveBeenLastCalledWith({ jwt: 'from-other-tab', userId: '' });
    stop();
    window.dispatchEvent(new StorageEvent('storage', { key: 'jwt' }));
    expect(onChange).toHaveBeenCalledTimes(1);
  });
});
