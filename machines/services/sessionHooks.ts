import type { StepUpMethod } from '../../server/src/contract/stepUp';

/**
 * How the API client reaches the session: the stored token, and who to tell when the server refuses
 * it. Apart from the client so the first paint can wire it without loading the client.
 */
export type SessionHooks = {
  getToken: () => string | null;
  /** Called when the server refuses the token the browser holds now: why, if the server said (signed out elsewhere). */
  onUnauthorized: (why: SessionEnd) => void;
};

/** A refused token: expired or revoked (the server's plain 401), or its session signed out from another device. */
export type SessionEnd = 'expired' | 'signedOut';

let sessionHooks: SessionHooks = { getToken: () => null, onUnauthorized: () => {} };

export function configureApiClient(hooks: SessionHooks): void {
  sessionHooks = hooks;
}

export function storedToken(): string | null {
  return sessionHooks.getToken();
}

export function reportUnauthorized(why: SessionEnd): void {
  sessionHooks.onUnauthorized(why);
}

/**
 * Asks the member to prove presence again (docs/security.md#step-up) and resolves true once they did,
 * false when they cancelled. Wired by the app to the step-up dialog; until then nobody is asked.
 */
export type StepUpHook = (methods: StepUpMethod[]) => Promise<boolean>;

const nobodyAsked: StepUpHook = async () => false;
let stepUpHook: StepUpHook = nobodyAsked;

/** Installs the step-up dialog's hook; the returned function removes it again. */
export function configureStepUp(hook: StepUpHook): () => void {
  stepUpHook = hook;
  return () => {
    if (stepUpHook === hook) stepUpHook = nobodyAsked;
  };
}

export function askForStepUp(methods: StepUpMethod[]): Promise<boolean> {
  return stepUpHook(methods);
}
